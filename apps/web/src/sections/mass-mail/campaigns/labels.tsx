/** Campaign states, message statuses and delivery progress as the campaign screens draw them. */
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  EditOutlined,
  MailOutlined,
  MessageOutlined,
  PauseCircleOutlined,
  StopOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { type CampaignState, type ChannelCategory, MESSAGE_STATUSES, type MessageStatus, PENDING_STATUSES } from '@herald/shared';
import { Flex, Tag, Tooltip, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campaign, StatusCounts } from './api';

const STATE_LOOK: Record<CampaignState, { color: string; icon: ReactNode }> = {
  draft: { color: 'default', icon: <EditOutlined /> },
  scheduled: { color: 'purple', icon: <ClockCircleOutlined /> },
  sending: { color: 'processing', icon: <SyncOutlined spin /> },
  paused: { color: 'warning', icon: <PauseCircleOutlined /> },
  sent: { color: 'success', icon: <CheckCircleOutlined /> },
  cancelled: { color: 'default', icon: <StopOutlined /> },
  failed: { color: 'error', icon: <CloseCircleOutlined /> },
};

export function StateTag({ state }: { state: CampaignState }) {
  const { t } = useTranslation('campaigns');
  const look = STATE_LOOK[state];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="campaign-state" data-state={state} style={{ marginInlineEnd: 0 }}>
      {t(`states.${state}`)}
    </Tag>
  );
}

export function ChannelTag({ channel }: { channel: ChannelCategory }) {
  const { t } = useTranslation('campaigns');
  return (
    <Tag color={channel === 'EMAIL' ? 'blue' : 'purple'} icon={channel === 'EMAIL' ? <MailOutlined /> : <MessageOutlined />}>
      {t(`channels.${channel}`)}
    </Tag>
  );
}

/** Chart and legend colours; tags use antd's preset of the same hue. */
export const STATUS_COLORS: Record<MessageStatus, string> = {
  unsent: '#d9d9d9',
  processing: '#91caff',
  resending: '#ffc53d',
  sent: '#1677ff',
  sent_alternative: '#2f54eb',
  delivered: '#52c41a',
  undelivered: '#fa541c',
  unread: '#95de64',
  read: '#237804',
  failed: '#f5222d',
  filtered: '#eb2f96',
  unknown: '#8c8c8c',
};

const STATUS_TAGS: Record<MessageStatus, string> = {
  unsent: 'default',
  processing: 'processing',
  resending: 'gold',
  sent: 'blue',
  sent_alternative: 'geekblue',
  delivered: 'green',
  undelivered: 'volcano',
  unread: 'lime',
  read: 'cyan',
  failed: 'red',
  filtered: 'magenta',
  unknown: 'default',
};

export function isMessageStatus(value: string): value is MessageStatus {
  return (MESSAGE_STATUSES as readonly string[]).includes(value);
}

/** A message still waiting in a cancelled campaign: it keeps its status but will never be sent. */
export function neverSent(status: string, campaignState: string | null | undefined): boolean {
  return campaignState === 'cancelled' && isMessageStatus(status) && PENDING_STATUSES.includes(status);
}

export function StatusTag({ status }: { status: MessageStatus }) {
  const { t } = useTranslation('campaigns');
  return (
    <Tag color={STATUS_TAGS[status]} style={{ marginInlineEnd: 0 }}>
      {t(`statuses.${status}`)}
    </Tag>
  );
}

/** The statuses that have messages, in the order delivery moves through them. */
export function presentStatuses(counts: StatusCounts): { status: MessageStatus; count: number }[] {
  return MESSAGE_STATUSES.map((status) => ({ status, count: counts[status] ?? 0 })).filter((entry) => entry.count > 0);
}

/** The bar's segments: statuses grouped by what they say about the message. */
const SEGMENTS = {
  delivered: ['delivered', 'read', 'unread'],
  sent: ['sent', 'sent_alternative', 'unknown'],
  failed: ['failed', 'undelivered', 'filtered'],
} as const satisfies Record<string, readonly MessageStatus[]>;

type Segment = keyof typeof SEGMENTS;

const SEGMENT_COLORS: Record<Segment, string> = { delivered: '#52c41a', sent: '#1677ff', failed: '#ff4d4f' };

interface Progress {
  total: number;
  /** Messages no longer waiting: total − unsent − processing − resending. */
  settled: number;
  segments: Record<Segment, number>;
}

export function progressOf(campaign: Pick<Campaign, 'total' | 'counts'>): Progress {
  const count = (statuses: readonly MessageStatus[]) => statuses.reduce((sum, status) => sum + (campaign.counts[status] ?? 0), 0);
  const waiting = count(['unsent', 'processing', 'resending']);
  return {
    total: campaign.total,
    settled: campaign.total - waiting,
    segments: { delivered: count(SEGMENTS.delivered), sent: count(SEGMENTS.sent), failed: count(SEGMENTS.failed) },
  };
}

export function ProgressBar({ campaign, height = 8 }: { campaign: Campaign; height?: number }) {
  const { t, i18n } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const progress = progressOf(campaign);
  const number = new Intl.NumberFormat(i18n.language);
  const percent = progress.total > 0 ? Math.floor((progress.settled / progress.total) * 100) : 0;
  if (progress.total === 0) {
    return (
      <Typography.Text type="secondary" data-testid="campaign-progress" data-total={0} data-settled={0}>
        {t(campaign.state === 'sending' || campaign.state === 'paused' ? 'progress.preparing' : 'progress.notStarted')}
      </Typography.Text>
    );
  }
  const order: Segment[] = ['delivered', 'sent', 'failed'];
  return (
    <Tooltip
      title={
        <Flex vertical gap={2}>
          {order.map((segment) => (
            <Flex key={segment} align="center" gap={8}>
              <span style={{ width: 8, height: 8, borderRadius: 2, background: SEGMENT_COLORS[segment] }} />
              {t(`progress.${segment}`, { n: number.format(progress.segments[segment]) })}
            </Flex>
          ))}
          <Flex align="center" gap={8}>
            <span style={{ width: 8, height: 8, borderRadius: 2, background: token.colorFillSecondary }} />
            {t('progress.waiting', { n: number.format(progress.total - progress.settled) })}
          </Flex>
        </Flex>
      }
    >
      <Flex
        vertical
        gap={4}
        data-testid="campaign-progress"
        data-total={progress.total}
        data-settled={progress.settled}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.settled}
        style={{ minWidth: 160 }}
      >
        <div
          style={{
            display: 'flex',
            height,
            borderRadius: height / 2,
            overflow: 'hidden',
            background: token.colorFillSecondary,
          }}
        >
          {order.map((segment) => (
            <div
              key={segment}
              style={{
                width: `${(progress.segments[segment] / progress.total) * 100}%`,
                background: SEGMENT_COLORS[segment],
                transition: 'width 0.6s ease',
              }}
            />
          ))}
        </div>
        <Flex justify="space-between" style={{ fontSize: 12 }}>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
            {t('progress.settled', { settled: number.format(progress.settled), total: number.format(progress.total) })}
          </Typography.Text>
          <Typography.Text strong style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
            {percent}%
          </Typography.Text>
        </Flex>
      </Flex>
    </Tooltip>
  );
}
