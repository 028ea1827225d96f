/** Contact lists: the audiences campaigns are sent to. */
import { TeamOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Contacts() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="contacts-empty"
      icon={<TeamOutlined />}
      title={t('contacts.title')}
      description={t('contacts.description')}
      capabilities={textList(t, 'contacts.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/mass-mail/contacts/import')}>
            {t('actions.importContacts')}
          </Button>
        </Space>
      }
    />
  );
}
