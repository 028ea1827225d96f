/** Campaign list: every campaign with its state (sending, sent). */
import { SendOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function Campaigns() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="campaigns-empty"
      icon={<SendOutlined />}
      title={t('campaigns.title')}
      description={t('campaigns.description')}
      capabilities={textList(t, 'campaigns.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/mass-mail/campaigns/create')}>
            {t('actions.createCampaign')}
          </Button>
          <Button onClick={() => navigate('/mass-mail/contacts')}>{t('actions.contacts')}</Button>
        </Space>
      }
    />
  );
}
