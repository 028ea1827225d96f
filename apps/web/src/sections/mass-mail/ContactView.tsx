/** One contact list and its contacts. */
import { IdcardOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function ContactView() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <EmptyState
      testId="contact-view-empty"
      icon={<IdcardOutlined />}
      title={t('contactView.title', { id })}
      description={t('contactView.description')}
      capabilities={textList(t, 'contactView.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/mass-mail/contacts/import')}>
            {t('actions.importContacts')}
          </Button>
          <Button onClick={() => navigate('/mass-mail/contacts')}>{t('actions.allLists')}</Button>
        </Space>
      }
    />
  );
}
