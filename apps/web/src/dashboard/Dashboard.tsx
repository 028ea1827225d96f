/** Dashboard: server status, messages and delivery over 7 days, campaigns, configs and balances, and where to start. */
import {
  ApiOutlined,
  CheckCircleFilled,
  CheckCircleOutlined,
  CloudServerOutlined,
  MailOutlined,
  MessageOutlined,
  RightOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { hasAnyRole } from '@herald/shared';
import { Badge, Card, Col, Empty, Flex, List, Row, Steps, Tooltip, Typography, theme } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServerHealth } from '../layout/useServerHealth';
import { useSession } from '../session/useSession';
import { LazyChart } from '../ui/LazyChart';
import { formatTime } from '../utils/date';
import { useConfigCounts } from './useConfigCounts';
import { type DashboardFigures, useDashboardFigures, useFirstBalances } from './useDashboardFigures';

interface TileProps {
  testId: string;
  title: string;
  icon: ReactNode;
  value: ReactNode;
  loading?: boolean;
  hint?: ReactNode;
}

function Tile({ testId, title, icon, value, loading, hint }: TileProps) {
  const { token } = theme.useToken();
  return (
    <Card data-testid={testId} loading={loading} style={{ height: '100%' }}>
      <Flex justify="space-between" align="start" gap={12}>
        <div>
          <Typography.Text type="secondary">{title}</Typography.Text>
          <div style={{ fontSize: 24, fontWeight: 600, marginTop: 4 }} data-testid={`${testId}-value`}>
            {value}
          </div>
        </div>
        <span style={{ fontSize: 28, color: token.colorPrimary, opacity: 0.85 }}>{icon}</span>
      </Flex>
      {hint && <div style={{ marginTop: 12 }}>{hint}</div>}
    </Card>
  );
}

function Hint({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to}>
      {children} <RightOutlined style={{ fontSize: 10 }} />
    </Link>
  );
}

function percent(value: number | null | undefined, language: string): string {
  return value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
}

/** Messages per day over the last 7 days, per channel, with how many reached their recipient. */
function WeekChart({ figures }: { figures: DashboardFigures }) {
  const { t, i18n } = useTranslation('dashboard');
  const { token } = theme.useToken();
  const option = useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const axisText = { color: token.colorTextSecondary };
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => number.format(Number(v)) },
      legend: { bottom: 0, icon: 'circle', itemWidth: 8, itemHeight: 8, textStyle: { color: token.colorTextSecondary } },
      grid: { left: 8, right: 8, top: 16, bottom: 36, containLabel: true },
      xAxis: { type: 'category', data: figures.days.map((day) => day.date.slice(5)), axisLabel: axisText },
      yAxis: { type: 'value', minInterval: 1, axisLabel: axisText },
      series: [
        {
          name: t('chart.email'),
          type: 'bar',
          stack: 'sent',
          barMaxWidth: 36,
          itemStyle: { color: '#1677ff' },
          data: figures.days.map((day) => day.email),
        },
        {
          name: t('chart.sms'),
          type: 'bar',
          stack: 'sent',
          barMaxWidth: 36,
          itemStyle: { color: '#722ed1' },
          data: figures.days.map((day) => day.sms),
        },
        {
          name: t('chart.reached'),
          type: 'line',
          symbolSize: 6,
          itemStyle: { color: '#52c41a' },
          data: figures.days.map((day) => day.reached),
        },
      ],
    };
  }, [figures, t, i18n.language, token]);
  return <LazyChart option={option} testId="dashboard-chart-canvas" height={260} />;
}

function Balances() {
  const { t, i18n } = useTranslation('dashboard');
  const { entries, loading } = useFirstBalances();
  return (
    <Card title={t('balances.title', { n: 5 })} data-testid="dashboard-balances" loading={loading} style={{ height: '100%' }}>
      {entries.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Link to="/configs/providers">{t('configs.hintEmpty')}</Link>} />
      ) : (
        <List
          size="small"
          dataSource={entries}
          renderItem={({ config, balance }) => (
            <List.Item data-testid="dashboard-balance">
              <Typography.Text ellipsis style={{ maxWidth: '60%' }}>
                {config.category === 'SMS' ? <MessageOutlined /> : <MailOutlined />} {config.name}
              </Typography.Text>
              {balance?.balance !== null && balance?.balance !== undefined ? (
                <span style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(balance.balance)}{' '}
                  {balance.currency ?? ''}
                </span>
              ) : (
                <Tooltip title={balance?.error ?? t('balances.unknownHint')}>
                  <Typography.Text type="secondary">{t('balances.unknown')}</Typography.Text>
                </Tooltip>
              )}
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

export default function Dashboard() {
  const { t, i18n } = useTranslation('dashboard');
  const { user, roles } = useSession();
  const health = useServerHealth();
  const { counts, loading } = useConfigCounts();
  const figures = useDashboardFigures();
  const number = new Intl.NumberFormat(i18n.language);
  const site = hasAnyRole(roles, ['site', 'admin']);
  const configTotal = counts.EMAIL + counts.SMS;

  const serverValue =
    health.status === 'checking' ? (
      <Badge status="processing" text={t('server.checking')} />
    ) : (
      <Badge status={health.status === 'up' ? 'success' : 'error'} text={t(`server.${health.status}`)} />
    );

  const steps = site
    ? [
        { key: 'configs', to: '/configs/providers', done: configTotal > 0 },
        { key: 'contacts', to: '/mass-mail/contacts/import', done: false },
        { key: 'templates', to: '/templates/create', done: false },
        { key: 'campaign', to: '/mass-mail/campaigns/create', done: false },
      ]
    : [
        { key: 'configs', to: '/configs/providers', done: configTotal > 0 },
        { key: 'apiKeys', to: '/documentation/api', done: false },
        { key: 'sdk', to: '/documentation/sdk', done: false },
      ];
  const firstOpen = steps.findIndex((step) => !step.done);

  return (
    <Flex vertical gap={16} data-testid="dashboard">
      <div>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {user?.name || user?.username ? t('welcomeName', { name: user.name || user.username }) : t('welcome')}
        </Typography.Title>
        <Typography.Text type="secondary">{t(`profile.${user?.profile ?? 'site'}`)}</Typography.Text>
      </div>
      <Row gutter={[16, 16]}>
        <Col flex="1 1 180px">
          <Tile
            testId="dashboard-server-status"
            title={t('server.title')}
            icon={<CloudServerOutlined />}
            value={serverValue}
            hint={
              health.checkedAt ? (
                <Typography.Text type="secondary">
                  {t('server.checkedAt', { time: formatTime(health.checkedAt, 'HH:mm:ss') })}
                </Typography.Text>
              ) : undefined
            }
          />
        </Col>
        <Col flex="1 1 180px">
          <Tile
            testId="dashboard-configs"
            title={t('configs.title')}
            icon={<ApiOutlined />}
            loading={loading}
            value={
              <Flex gap={16} align="baseline" wrap>
                <span data-testid="dashboard-configs-email">
                  <MailOutlined /> {counts.EMAIL}{' '}
                  <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}>
                    {t('configs.email')}
                  </Typography.Text>
                </span>
                <span data-testid="dashboard-configs-sms">
                  <MessageOutlined /> {counts.SMS}{' '}
                  <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}>
                    {t('configs.sms')}
                  </Typography.Text>
                </span>
              </Flex>
            }
            hint={<Hint to="/configs/providers">{t(configTotal === 0 ? 'configs.hintEmpty' : 'configs.hint')}</Hint>}
          />
        </Col>
        <Col flex="1 1 180px">
          <Tile
            testId="dashboard-campaigns"
            title={t('campaigns.title')}
            icon={<SendOutlined />}
            loading={figures.isPending}
            value={
              <span>
                {number.format(figures.data?.runningCampaigns ?? 0)}{' '}
                <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}>
                  {t('campaigns.running')}
                </Typography.Text>
              </span>
            }
            hint={
              site ? (
                <Hint to="/mass-mail/campaigns/create">{t('campaigns.hint')}</Hint>
              ) : (
                <Typography.Text type="secondary">{t('campaigns.hintApi')}</Typography.Text>
              )
            }
          />
        </Col>
        <Col flex="1 1 180px">
          <Tile
            testId="dashboard-messages-today"
            title={t('messages.title')}
            icon={<MailOutlined />}
            loading={figures.isPending}
            value={number.format(figures.data?.today ?? 0)}
            hint={
              <Flex justify="space-between" gap={8} wrap>
                <Typography.Text type="secondary" data-testid="dashboard-messages-week">
                  {t('messages.week', { n: number.format(figures.data?.week ?? 0) })}
                </Typography.Text>
                <Hint to="/statistics/email/reports">{t('messages.hint')}</Hint>
              </Flex>
            }
          />
        </Col>
        <Col flex="1 1 180px">
          <Tile
            testId="dashboard-delivery"
            title={t('delivery.title')}
            icon={<CheckCircleOutlined />}
            loading={figures.isPending}
            value={percent(figures.data?.deliveryRate, i18n.language)}
            hint={<Typography.Text type="secondary">{t('delivery.hint')}</Typography.Text>}
          />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card title={t('chart.title')} data-testid="dashboard-chart" style={{ height: '100%' }}>
            {figures.data ? <WeekChart figures={figures.data} /> : <div style={{ height: 260 }} />}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Balances />
        </Col>
      </Row>
      <Card title={t('start.title')} data-testid="dashboard-start">
        <Steps
          orientation="vertical"
          current={firstOpen === -1 ? steps.length : firstOpen}
          items={steps.map((step) => ({
            title: <Link to={step.to}>{t(`start.${step.key}.title`)}</Link>,
            content: t(`start.${step.key}.description`),
            icon: step.done ? <CheckCircleFilled /> : undefined,
          }))}
        />
      </Card>
    </Flex>
  );
}
