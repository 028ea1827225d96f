/** One message of the account's log in a drawer: where it went, what the provider said, and its status history. */
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Flex, Result, Skeleton, Timeline, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Dash, LogTime } from '../../ui/MessageLogTable';
import { neverSent, STATUS_COLORS, StatusTag } from '../mass-mail/campaigns/labels';
import { type LogEntry, messageQuery } from './api';
import type { StatisticsChannel } from './channel';

/** The provider's words for the current status, led by why a cancelled campaign's waiting message never goes. */
export function providerMessageText(entry: LogEntry, t: TFunction<['statistics', 'campaigns']>): string {
  return [neverSent(entry.status, entry.campaignState) ? t('campaigns:log.cancelled') : null, entry.providerMessage]
    .filter(Boolean)
    .join(' · ');
}

export function MessageDrawer({
  channel,
  id,
  onClose,
}: {
  channel: StatisticsChannel;
  id: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation(['statistics', 'campaigns']);
  const message = useQuery(messageQuery(channel, id));
  const data = message.data;
  return (
    <Drawer open={id !== undefined} onClose={onClose} size={520} title={t('log.drawer.title', { id: id ?? '' })} destroyOnHidden>
      {message.isError ? (
        <Result status="404" title={t('log.drawer.missing')} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={24} data-testid="log-drawer">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('log.columns.status')}>
              <StatusTag status={data.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('log.columns.recipient')}>{data.recipient}</Descriptions.Item>
            <Descriptions.Item label={t('log.columns.template')}>{data.template ?? <Dash />}</Descriptions.Item>
            <Descriptions.Item label={t('log.columns.campaign')}>{data.campaign ?? t('log.api')}</Descriptions.Item>
            <Descriptions.Item label={t('log.columns.config')}>{data.providerConfig ?? <Dash />}</Descriptions.Item>
            <Descriptions.Item label={t('log.columns.providerMessage')}>
              <span data-testid="log-drawer-provider-message">{providerMessageText(data, t) || <Dash />}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('log.drawer.providerMessageId')}>
              {data.providerMessageId ? <Typography.Text copyable>{data.providerMessageId}</Typography.Text> : <Dash />}
            </Descriptions.Item>
            <Descriptions.Item label={t('log.columns.retries')}>{data.retries}</Descriptions.Item>
            <Descriptions.Item label={t('log.columns.locale')}>{data.locale ?? <Dash />}</Descriptions.Item>
            <Descriptions.Item label={t('log.drawer.created')}>
              <LogTime value={data.createdAt} />
            </Descriptions.Item>
          </Descriptions>
          <div>
            <Typography.Title level={5}>{t('log.drawer.history')}</Typography.Title>
            <Timeline
              data-testid="log-history"
              items={data.history.map((entry, index) => ({
                key: index,
                color: STATUS_COLORS[entry.status] ?? 'gray',
                content: (
                  <Flex vertical gap={2} data-testid="log-history-entry" data-status={entry.status}>
                    <Flex gap={8} align="center" wrap>
                      <StatusTag status={entry.status} />
                      <Typography.Text type="secondary">
                        <LogTime value={entry.at} />
                      </Typography.Text>
                    </Flex>
                    {entry.providerConfig && <Typography.Text type="secondary">{entry.providerConfig}</Typography.Text>}
                    {entry.detail && <Typography.Text>{entry.detail}</Typography.Text>}
                  </Flex>
                ),
              }))}
            />
          </div>
        </Flex>
      )}
    </Drawer>
  );
}
