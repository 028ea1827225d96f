/** The campaign log: every message of one campaign with its status, paged by the server and filtered by status; a row opens its history. */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { MESSAGE_STATUSES, type MessageStatus } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Result, Select, Space, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../../router/pageTitle';
import { Dash, LogTime, MessageLogTable, recipientColumn } from '../../../ui/MessageLogTable';
import { useServerPaging } from '../../../ui/serverPaging';
import { MessageDrawer } from '../../statistics/MessageDrawer';
import { campaignQuery, type LogEntry, logQuery } from './api';
import { CampaignActions } from './CampaignActions';
import { isMessageStatus, neverSent, StateTag, StatusTag } from './labels';
import { useCampaignProgress } from './progress';

export default function CampaignLog() {
  const { t, i18n } = useTranslation('campaigns');
  const id = Number(useParams().id);
  const [status, setStatus] = useState<MessageStatus>();
  const [open, setOpen] = useState<number>();
  const paging = useServerPaging();
  const campaign = useQuery(campaignQuery(id));
  const log = useQuery({ ...logQuery(id, status, paging.page, paging.size), enabled: campaign.isSuccess });
  useCampaignProgress();
  usePageTitle(campaign.data ? t('log.title', { name: campaign.data.name }) : undefined);
  const number = new Intl.NumberFormat(i18n.language);
  const total = log.data?.total ?? 0;

  if (campaign.isError || !Number.isInteger(id)) {
    return (
      <Card variant="borderless">
        <Result status="404" title={t('view.missing')} extra={<Link to="/mass-mail/campaigns">{t('wizard.toList')}</Link>} />
      </Card>
    );
  }

  const cancelled = (entry: LogEntry) => neverSent(entry.status, campaign.data?.state);
  const columns: ColumnsType<LogEntry> = [
    recipientColumn(t('log.columns.recipient'), 260),
    {
      key: 'status',
      title: t('log.columns.status'),
      width: 160,
      render: (_, entry) => (isMessageStatus(entry.status) ? <StatusTag status={entry.status} /> : entry.status),
    },
    {
      key: 'time',
      title: t('log.columns.time'),
      width: 180,
      render: (_, entry) => <LogTime value={entry.time} />,
    },
    {
      key: 'config',
      title: t('log.columns.config'),
      width: 170,
      render: (_, entry) => entry.providerConfig ?? <Dash />,
    },
    {
      key: 'providerMessage',
      title: t('log.columns.providerMessage'),
      render: (_, entry) =>
        entry.providerMessage || entry.providerMessageId || cancelled(entry) ? (
          <Flex vertical>
            {cancelled(entry) && (
              <Typography.Text type="secondary" data-testid="log-cancelled">
                {t('log.cancelled')}
              </Typography.Text>
            )}
            {entry.providerMessage && <span>{entry.providerMessage}</span>}
            {entry.providerMessageId && (
              <Tooltip title={t('log.messageId')}>
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, maxWidth: 240 }}>
                  {entry.providerMessageId}
                </Typography.Text>
              </Tooltip>
            )}
          </Flex>
        ) : (
          <Dash />
        ),
    },
    {
      key: 'attempts',
      title: t('log.columns.attempts'),
      align: 'right',
      width: 100,
      render: (_, entry) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{entry.attempts}</span>,
    },
    {
      key: 'locale',
      title: t('log.columns.locale'),
      width: 90,
      render: (_, entry) => entry.locale ?? <Dash />,
    },
  ];

  const counts = campaign.data?.counts ?? {};
  return (
    <Card variant="borderless" data-testid="campaign-log">
      <Flex justify="space-between" align="start" gap={16} wrap style={{ marginBottom: 16 }}>
        <Flex vertical gap={8}>
          <Link to={`/mass-mail/campaigns/view/${id}`} style={{ fontSize: 13 }}>
            <ArrowLeftOutlined /> {t('log.back')}
          </Link>
          <Flex align="center" gap={12} wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('log.title', { name: campaign.data?.name ?? '' })}
            </Typography.Title>
            {campaign.data && <StateTag state={campaign.data.state} />}
          </Flex>
          <Typography.Text type="secondary">{t('log.subtitle')}</Typography.Text>
        </Flex>
        {campaign.data && (
          <CampaignActions campaign={campaign.data} variant="buttons" openCopy hide={['log', 'edit', 'delete']} />
        )}
      </Flex>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Space wrap>
          <Select<MessageStatus>
            allowClear
            data-testid="log-status-filter"
            placeholder={t('log.allStatuses')}
            style={{ width: 280 }}
            value={status}
            onChange={(value) => {
              setStatus(value);
              paging.toFirstPage();
            }}
            options={MESSAGE_STATUSES.map((value) => ({
              value,
              label: t(`statuses.${value}`),
              count: counts[value] ?? 0,
            }))}
            optionRender={(option) => (
              <Flex justify="space-between" gap={12}>
                <span>{option.label}</span>
                <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {number.format(option.data.count)}
                </Typography.Text>
              </Flex>
            )}
          />
        </Space>
        <Typography.Text type="secondary" data-testid="log-total">
          {t('log.total', { count: total, n: number.format(total) })}
        </Typography.Text>
      </Flex>
      <MessageLogTable<LogEntry>
        testId="campaign-log-table"
        columns={columns}
        log={log}
        paging={paging}
        scrollWidth={1100}
        emptyText={t(status ? 'log.emptyStatus' : 'log.empty')}
        onOpen={(entry) => setOpen(entry.id)}
      />
      {campaign.data && (
        <MessageDrawer channel={campaign.data.channel === 'SMS' ? 'sms' : 'email'} id={open} onClose={() => setOpen(undefined)} />
      )}
    </Card>
  );
}
