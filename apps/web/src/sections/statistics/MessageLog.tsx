/** Message log of one channel (the route says which): filtered, paged by the server, with each message's history in a drawer. */
import { BarChartOutlined, SearchOutlined } from '@ant-design/icons';
import { LOG_COUNT_CAP, MAX_REPORT_DAYS, MESSAGE_STATUSES, type MessageStatus } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Flex, Input, Select, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dash, LogTime, MessageLogTable, recipientColumn } from '../../ui/MessageLogTable';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { useServerPaging } from '../../ui/serverPaging';
import { StatusTag } from '../mass-mail/campaigns/labels';
import { campaignsQuery, configsQuery, type LogEntry, type LogFilter, logQuery } from './api';
import type { StatisticsChannel } from './channel';
import { MessageDrawer, providerMessageText } from './MessageDrawer';

const DATE = 'YYYY-MM-DD';
const CATEGORY: Record<StatisticsChannel, string> = { email: 'EMAIL', sms: 'SMS' };

export default function MessageLog({ channel }: { channel: StatisticsChannel }) {
  const { t, i18n } = useTranslation(['statistics', 'campaigns']);
  const navigate = useNavigate();
  const [status, setStatus] = useState<MessageStatus>();
  const [recipient, setRecipient] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [configId, setConfigId] = useState<number>();
  const [campaignId, setCampaignId] = useState<number>();
  const paging = useServerPaging();
  const [open, setOpen] = useState<number>();
  const filter: LogFilter = {
    page: paging.page,
    size: paging.size,
    ...(status ? { status } : {}),
    ...(recipient ? { recipient } : {}),
    ...(range ? { dateRange: [range[0].format(DATE), range[1].format(DATE)] as [string, string] } : {}),
    ...(configId !== undefined ? { configId } : {}),
    ...(campaignId !== undefined ? { campaignId } : {}),
  };
  const log = useQuery(logQuery(channel, filter));
  const configs = useQuery(configsQuery);
  const campaigns = useQuery(campaignsQuery);
  const number = new Intl.NumberFormat(i18n.language);
  const total = log.data?.total ?? 0;
  const filtered = Object.keys(filter).length > 2;
  const firstPage =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      paging.toFirstPage();
    };

  const columns: ColumnsType<LogEntry> = [
    { key: 'status', title: t('log.columns.status'), width: 170, render: (_, entry) => <StatusTag status={entry.status} /> },
    { key: 'time', title: t('log.columns.time'), width: 170, render: (_, entry) => <LogTime value={entry.time} /> },
    recipientColumn(t('log.columns.recipient'), 240),
    {
      key: 'template',
      title: t('log.columns.template'),
      width: 160,
      ellipsis: true,
      render: (_, entry) => entry.template ?? <Dash />,
    },
    {
      key: 'config',
      title: t('log.columns.config'),
      width: 160,
      ellipsis: true,
      render: (_, entry) => entry.providerConfig ?? <Dash />,
    },
    {
      key: 'providerMessage',
      title: t('log.columns.providerMessage'),
      ellipsis: { showTitle: false },
      render: (_, entry) => {
        const text = providerMessageText(entry, t);
        return text ? (
          <Tooltip title={text} placement="topLeft">
            <span data-testid="log-provider-message">{text}</span>
          </Tooltip>
        ) : (
          <Dash />
        );
      },
    },
    {
      key: 'retries',
      title: t('log.columns.retries'),
      align: 'right',
      width: 90,
      render: (_, entry) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{entry.retries}</span>,
    },
    { key: 'locale', title: t('log.columns.locale'), width: 80, render: (_, entry) => entry.locale ?? <Dash /> },
  ];

  return (
    <Card variant="borderless" data-testid={`log-${channel}`}>
      <ScreenHeader title={t('log.title', { channel: t(`channel.${channel}`) })} subtitle={t('log.subtitle')}>
        <Button icon={<BarChartOutlined />} onClick={() => navigate(`/statistics/${channel}/reports`)}>
          {t('actions.reports')}
        </Button>
      </ScreenHeader>
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Select<MessageStatus>
          allowClear
          data-testid="log-status"
          aria-label={t('log.columns.status')}
          placeholder={t('log.allStatuses')}
          style={{ width: 240 }}
          value={status}
          onChange={firstPage(setStatus)}
          options={MESSAGE_STATUSES.map((value) => ({ value, label: t(`campaigns:statuses.${value}`) }))}
        />
        <Input.Search
          allowClear
          data-testid="log-recipient"
          aria-label={t('log.columns.recipient')}
          placeholder={t(`log.recipientPlaceholder.${channel}`)}
          style={{ width: 260 }}
          enterButton={<Button icon={<SearchOutlined />} aria-label={t('log.columns.recipient')} />}
          onSearch={(value) => firstPage(setRecipient)(value.trim())}
        />
        <DatePicker.RangePicker
          data-testid="log-range"
          value={range}
          disabledDate={(day, info) => (info.from ? Math.abs(day.diff(info.from, 'day')) >= MAX_REPORT_DAYS : false)}
          onChange={(value) => firstPage(setRange)(value?.[0] && value[1] ? [value[0], value[1]] : null)}
        />
        <Select<number>
          allowClear
          data-testid="log-config"
          aria-label={t('log.columns.config')}
          placeholder={t('log.allConfigs')}
          style={{ width: 200 }}
          value={configId}
          onChange={firstPage(setConfigId)}
          options={(configs.data ?? [])
            .filter((entry) => entry.category === CATEGORY[channel])
            .map((entry) => ({ value: entry.id, label: entry.name }))}
        />
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="log-campaign"
          aria-label={t('log.columns.campaign')}
          placeholder={t('log.allCampaigns')}
          style={{ width: 220 }}
          value={campaignId}
          onChange={firstPage(setCampaignId)}
          options={(campaigns.data?.items ?? [])
            .filter((entry) => entry.channel === CATEGORY[channel])
            .map((entry) => ({ value: entry.id, label: entry.name }))}
        />
        <Typography.Text type="secondary" data-testid="log-total" style={{ marginInlineStart: 'auto' }}>
          {log.data?.capped
            ? t('log.totalCapped', { n: number.format(LOG_COUNT_CAP) })
            : t('log.total', { count: total, n: number.format(total) })}
        </Typography.Text>
      </Flex>
      <MessageLogTable<LogEntry>
        testId="log-table"
        columns={columns}
        log={log}
        paging={paging}
        scrollWidth={1200}
        emptyText={t(filtered ? 'log.emptyFiltered' : 'log.empty', { channel: t(`channel.${channel}`) })}
        onOpen={(entry) => setOpen(entry.id)}
      />
      <MessageDrawer channel={channel} id={open} onClose={() => setOpen(undefined)} />
    </Card>
  );
}
