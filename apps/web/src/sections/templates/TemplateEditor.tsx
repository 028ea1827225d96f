/** Template form, shared by create, edit/:name and copy/:name. */
import { CopyOutlined, EditOutlined, FormOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export type TemplateEditorMode = 'create' | 'edit' | 'copy';

const ICONS = { create: <FormOutlined />, edit: <EditOutlined />, copy: <CopyOutlined /> } as const;

export default function TemplateEditor({ mode }: { mode: TemplateEditorMode }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const { name = '' } = useParams();
  return (
    <EmptyState
      testId={`template-${mode}-empty`}
      icon={ICONS[mode]}
      title={t(`${mode}.title`, { name })}
      description={t(`${mode}.description`, { name })}
      capabilities={textList(t, `${mode}.capabilities`)}
      actions={
        <Space wrap>
          <Button onClick={() => navigate('/templates/list')}>{t('actions.allTemplates')}</Button>
          <Button onClick={() => navigate('/templates/variables')}>{t('actions.variables')}</Button>
        </Space>
      }
    />
  );
}
