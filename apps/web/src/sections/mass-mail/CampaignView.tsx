/** One campaign: its settings and delivery progress. */
import { EyeOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function CampaignView() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <EmptyState
      testId="campaign-view-empty"
      icon={<EyeOutlined />}
      title={t('campaignView.title', { id })}
      description={t('campaignView.description')}
      capabilities={textList(t, 'campaignView.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate(`/mass-mail/campaigns/statistics/${encodeURIComponent(id)}`)}>
            {t('actions.campaignLog')}
          </Button>
          <Button onClick={() => navigate('/mass-mail/campaigns')}>{t('actions.allCampaigns')}</Button>
        </Space>
      }
    />
  );
}
