/** Provider configurations: the email and SMS providers Herald sends through. */
import { AppstoreOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Providers() {
  const { t } = useTranslation('configs');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="providers-empty"
      icon={<AppstoreOutlined />}
      title={t('providers.title')}
      description={t('providers.description')}
      capabilities={textList(t, 'providers.capabilities')}
      actions={<Button onClick={() => navigate('/configs/groups')}>{t('actions.groups')}</Button>}
    />
  );
}
