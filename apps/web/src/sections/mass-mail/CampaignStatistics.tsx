/** Campaign log: every message of one campaign with its status. */
import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';

export default function CampaignStatistics() {
  const { t } = useTranslation('mass-mail');
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <EmptyState
      testId="campaign-statistics-empty"
      icon={<FileSearchOutlined />}
      title={t('campaignStatistics.title', { id })}
      description={t('campaignStatistics.description')}
      capabilities={textList(t, 'campaignStatistics.capabilities')}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate(`/mass-mail/campaigns/view/${encodeURIComponent(id)}`)}>
            {t('actions.backToCampaign')}
          </Button>
          <Button onClick={() => navigate('/mass-mail/campaigns')}>{t('actions.allCampaigns')}</Button>
        </Space>
      }
    />
  );
}
