/** Delivery reports of one channel (the route says which): totals, charts and CSV, by day count or date range and category. */
import { DownloadOutlined, TableOutlined } from '@ant-design/icons';
import { DEFAULT_REPORT_DAYS, MAX_REPORT_DAYS, MESSAGE_STATUSES } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Empty, Flex, Row, Segmented, Select, Statistic, Typography, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LazyChart } from '../../ui/LazyChart';
import { STATUS_COLORS } from '../mass-mail/campaigns/labels';
import { type Breakdown, categoriesQuery, type Report, type ReportFilter, reportCsv, reportQuery } from './api';
import type { StatisticsChannel } from './channel';

const DAY_CHOICES = [DEFAULT_REPORT_DAYS, 30, 90] as const;
const TOP_ENTRIES = 10;
const DATE = 'YYYY-MM-DD';

function percent(value: number | null, language: string): string {
  return value === null ? '—' : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

function ChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card title={title} size="small" data-testid={testId} style={{ height: '100%' }}>
      {children}
    </Card>
  );
}

/** Statuses present in a report, in delivery order, so the legend lists only what there is. */
function presentStatuses(report: Report | undefined) {
  return MESSAGE_STATUSES.filter((status) => (report?.counts[status] ?? 0) > 0);
}

function useCharts(report: Report | undefined, channel: StatisticsChannel) {
  const { t, i18n } = useTranslation(['statistics', 'campaigns']);
  const { token } = theme.useToken();
  return useMemo(() => {
    if (!report) return undefined;
    const number = new Intl.NumberFormat(i18n.language);
    const statuses = presentStatuses(report);
    const statusName = (status: string) => t(`campaigns:statuses.${status}`);
    const legend = {
      bottom: 0,
      type: 'scroll',
      icon: 'circle',
      itemWidth: 8,
      itemHeight: 8,
      textStyle: { color: token.colorTextSecondary, fontSize: 12 },
    };
    const axisText = { color: token.colorTextSecondary };
    const tooltip = {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: unknown) => number.format(Number(v)),
    };
    const perDay = {
      tooltip,
      legend,
      grid: { left: 8, right: 8, top: 16, bottom: 40, containLabel: true },
      xAxis: { type: 'category', data: report.days.map((day) => day.date.slice(5)), axisLabel: axisText },
      yAxis: { type: 'value', minInterval: 1, axisLabel: axisText },
      series: statuses.map((status) => ({
        name: statusName(status),
        type: 'bar',
        stack: 'status',
        barMaxWidth: 32,
        itemStyle: { color: STATUS_COLORS[status] },
        data: report.days.map((day) => day.counts[status] ?? 0),
      })),
    };
    const rateSeries: { key: 'deliveryRate' | 'readRate'; color: string }[] = [
      { key: 'deliveryRate', color: STATUS_COLORS.delivered },
      ...(channel === 'email' ? [{ key: 'readRate' as const, color: STATUS_COLORS.read }] : []),
    ];
    const rates = {
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: unknown) => (v === null || v === undefined || v === '-' ? '—' : percent(Number(v), i18n.language)),
      },
      legend,
      grid: { left: 8, right: 16, top: 16, bottom: 40, containLabel: true },
      xAxis: { type: 'category', data: report.days.map((day) => day.date.slice(5)), axisLabel: axisText },
      yAxis: {
        type: 'value',
        min: 0,
        max: 1,
        axisLabel: { ...axisText, formatter: (v: number) => percent(v, i18n.language) },
      },
      series: rateSeries.map(({ key, color }) => ({
        name: t(`reports.${key}`),
        type: 'line',
        connectNulls: true,
        symbolSize: 6,
        itemStyle: { color },
        data: report.days.map((day) => day[key]),
      })),
    };
    const breakdown = (entries: Breakdown[], unnamed: string) => {
      const top = entries.slice(0, TOP_ENTRIES).reverse();
      return {
        tooltip,
        legend,
        grid: { left: 8, right: 16, top: 8, bottom: 40, containLabel: true },
        xAxis: { type: 'value', minInterval: 1, axisLabel: axisText },
        yAxis: {
          type: 'category',
          data: top.map((entry) => entry.name ?? (entry.id === 0 ? unnamed : `#${entry.id}`)),
          axisLabel: { ...axisText, width: 140, overflow: 'truncate' },
        },
        series: statuses.map((status) => ({
          name: statusName(status),
          type: 'bar',
          stack: 'status',
          barMaxWidth: 22,
          itemStyle: { color: STATUS_COLORS[status] },
          data: top.map((entry) => entry.counts[status] ?? 0),
        })),
      };
    };
    return {
      perDay,
      rates,
      configs: breakdown(report.configs, t('reports.noConfig')),
      campaigns: breakdown(report.campaigns, t('reports.noCampaign')),
    };
  }, [report, channel, t, i18n.language, token]);
}

export default function Reports({ channel }: { channel: StatisticsChannel }) {
  const { t, i18n } = useTranslation(['statistics', 'campaigns']);
  const navigate = useNavigate();
  const [dayCount, setDayCount] = useState<number>(DEFAULT_REPORT_DAYS);
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [category, setCategory] = useState<number>();
  const [exporting, setExporting] = useState(false);
  const filter: ReportFilter = {
    ...(range ? { dateRange: [range[0].format(DATE), range[1].format(DATE)] } : { dayCount }),
    ...(category !== undefined ? { category } : {}),
  };
  const report = useQuery(reportQuery(channel, filter));
  const categories = useQuery(categoriesQuery);
  const charts = useCharts(report.data, channel);
  const number = new Intl.NumberFormat(i18n.language);
  const data = report.data;
  const count = (...statuses: (keyof Report['counts'])[]) =>
    statuses.reduce((sum, status) => sum + (data?.counts[status] ?? 0), 0);
  const channelName = t(`channel.${channel}`);

  const totals = [
    { key: 'total', value: data?.total ?? 0 },
    { key: 'reached', value: count('delivered', 'unread', 'read') },
    ...(channel === 'email' ? [{ key: 'read', value: count('read') }] : []),
    { key: 'failed', value: count('failed', 'undelivered', 'filtered') },
    { key: 'waiting', value: count('unsent', 'processing', 'resending') },
  ];

  return (
    <Flex vertical gap={16} data-testid={`reports-${channel}`}>
      <Card variant="borderless">
        <Flex justify="space-between" align="start" gap={16} wrap>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('reports.title', { channel: channelName })}
            </Typography.Title>
            <Typography.Text type="secondary">
              {data ? t('reports.period', { from: data.from, to: data.to }) : t('reports.loading')}
            </Typography.Text>
          </div>
          <Flex gap={8} wrap>
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              data-testid="reports-csv"
              onClick={async () => {
                setExporting(true);
                try {
                  const text = await reportCsv(channel, filter);
                  download(`herald-${channel}-${data?.from ?? ''}-${data?.to ?? ''}.csv`, text);
                } finally {
                  setExporting(false);
                }
              }}
            >
              {t('reports.csv')}
            </Button>
            <Button icon={<TableOutlined />} onClick={() => navigate(`/statistics/${channel}/log`)}>
              {t('actions.log')}
            </Button>
          </Flex>
        </Flex>
        <Flex gap={12} wrap align="center" style={{ marginTop: 16 }}>
          <Segmented<number>
            data-testid="reports-days"
            value={range ? -1 : dayCount}
            options={[
              ...DAY_CHOICES.map((days) => ({ value: days, label: t('reports.lastDays', { count: days }) })),
              ...(range ? [{ value: -1, label: t('reports.custom') }] : []),
            ]}
            onChange={(value) => {
              if (value === -1) return;
              setDayCount(value);
              setRange(null);
            }}
          />
          <DatePicker.RangePicker
            data-testid="reports-range"
            value={range}
            allowClear
            disabledDate={(day, info) => (info.from ? Math.abs(day.diff(info.from, 'day')) >= MAX_REPORT_DAYS : false)}
            onChange={(value) => setRange(value?.[0] && value[1] ? [value[0], value[1]] : null)}
          />
          <Select<number>
            allowClear
            data-testid="reports-category"
            placeholder={t('reports.allCategories')}
            style={{ minWidth: 200 }}
            value={category}
            onChange={setCategory}
            loading={categories.isPending}
            options={(categories.data ?? []).map((entry) => ({ value: entry.id, label: entry.name }))}
          />
        </Flex>
      </Card>

      <Row gutter={[16, 16]}>
        {totals.map((entry) => (
          <Col key={entry.key} flex="1 1 140px">
            <Card size="small" data-testid={`reports-total-${entry.key}`}>
              <Statistic
                title={t(`reports.totals.${entry.key}`)}
                value={entry.value}
                formatter={(value) => number.format(Number(value))}
                loading={report.isPending}
              />
            </Card>
          </Col>
        ))}
        <Col flex="1 1 140px">
          <Card size="small" data-testid="reports-total-deliveryRate">
            <Statistic
              title={t('reports.deliveryRate')}
              value={percent(data?.deliveryRate ?? null, i18n.language)}
              loading={report.isPending}
            />
          </Card>
        </Col>
        {channel === 'email' && (
          <Col flex="1 1 140px">
            <Card size="small" data-testid="reports-total-readRate">
              <Statistic
                title={t('reports.readRate')}
                value={percent(data?.readRate ?? null, i18n.language)}
                loading={report.isPending}
              />
            </Card>
          </Col>
        )}
      </Row>

      {data && data.total === 0 ? (
        <Card>
          <Empty data-testid="reports-empty" description={t('reports.empty', { channel: channelName })} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <ChartCard title={t('reports.charts.perDay')} testId="reports-chart-days">
              {charts && <LazyChart option={charts.perDay} testId="reports-chart-days-canvas" height={320} />}
            </ChartCard>
          </Col>
          <Col xs={24} xl={12}>
            <ChartCard title={t('reports.charts.rates')} testId="reports-chart-rates">
              {charts && <LazyChart option={charts.rates} height={280} />}
            </ChartCard>
          </Col>
          <Col xs={24} xl={12}>
            <ChartCard title={t('reports.charts.configs')} testId="reports-chart-configs">
              {charts && <LazyChart option={charts.configs} height={280} />}
            </ChartCard>
          </Col>
          <Col span={24}>
            <ChartCard title={t('reports.charts.campaigns', { count: TOP_ENTRIES })} testId="reports-chart-campaigns">
              {charts && (
                <LazyChart
                  option={charts.campaigns}
                  height={Math.max(200, 40 + 28 * Math.min(TOP_ENTRIES, data?.campaigns.length ?? 0))}
                />
              )}
            </ChartCard>
          </Col>
        </Row>
      )}
    </Flex>
  );
}
