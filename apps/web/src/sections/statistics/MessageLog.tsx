/** Message log for one channel; the route says which. */
import { TableOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { textList } from '../../ui/textList';
import type { StatisticsChannel } from './channel';

export default function MessageLog({ channel }: { channel: StatisticsChannel }) {
  const { t } = useTranslation('statistics');
  const navigate = useNavigate();
  const options = { channel: t(`channel.${channel}`) };
  return (
    <EmptyState
      testId={`log-${channel}-empty`}
      icon={<TableOutlined />}
      title={t('log.title', options)}
      description={t('log.description', options)}
      capabilities={textList(t, 'log.capabilities', options)}
      actions={
        <Button type="primary" onClick={() => navigate(`/statistics/${channel}/reports`)}>
          {t('actions.reports')}
        </Button>
      }
    />
  );
}
