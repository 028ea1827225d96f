/** Template list: every message template with its subject. */
import { FileTextOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function TemplateList() {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="templates-empty"
      icon={<FileTextOutlined />}
      title={t('list.title')}
      description={t('list.description')}
      capabilities={textList(t, 'list.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/templates/create')}>
            {t('actions.create')}
          </Button>
          <Button onClick={() => navigate('/templates/builder')}>{t('actions.builder')}</Button>
          <Button onClick={() => navigate('/templates/variables')}>{t('actions.variables')}</Button>
        </Space>
      }
    />
  );
}
