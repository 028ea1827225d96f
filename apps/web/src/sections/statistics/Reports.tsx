/** Delivery reports for one channel; the route says which. */
import { BarChartOutlined } from '@ant-design/icons';
import { DEFAULT_REPORT_DAYS } from '@herald/shared';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';
import type { StatisticsChannel } from './channel';

export default function Reports({ channel }: { channel: StatisticsChannel }) {
  const { t } = useTranslation('statistics');
  const navigate = useNavigate();
  const options = { channel: t(`channel.${channel}`), days: DEFAULT_REPORT_DAYS };
  return (
    <EmptyState
      testId={`reports-${channel}-empty`}
      icon={<BarChartOutlined />}
      title={t('reports.title', options)}
      description={t('reports.description', options)}
      capabilities={textList(t, 'reports.capabilities', options)}
      actions={
        <Space wrap>
          <Button type="primary" onClick={() => navigate(`/statistics/${channel}/log`)}>
            {t('actions.log')}
          </Button>
          <Button onClick={() => navigate('/configs/providers')}>{t('actions.configurations')}</Button>
        </Space>
      }
    />
  );
}
