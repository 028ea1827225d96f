/** Template variables: named values inserted into any template. */
import { CodeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function TemplateVariables() {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="template-variables-empty"
      icon={<CodeOutlined />}
      title={t('variables.title')}
      description={t('variables.description')}
      capabilities={textList(t, 'variables.capabilities')}
      actions={<Button onClick={() => navigate('/templates/list')}>{t('actions.allTemplates')}</Button>}
    />
  );
}
