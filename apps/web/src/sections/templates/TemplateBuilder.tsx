/** Visual email builder that saves its result as a template. */
import { BuildOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function TemplateBuilder() {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="template-builder-empty"
      icon={<BuildOutlined />}
      title={t('builder.title')}
      description={t('builder.description')}
      capabilities={textList(t, 'builder.capabilities')}
      actions={<Button onClick={() => navigate('/templates/list')}>{t('actions.allTemplates')}</Button>}
    />
  );
}
