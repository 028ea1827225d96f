/** Dashboard: server status, account tiles with honest zeros, and where to start. */
import {
  ApiOutlined,
  CheckCircleFilled,
  CloudServerOutlined,
  MailOutlined,
  MessageOutlined,
  RightOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { hasAnyRole } from '@herald/shared';
import { Badge, Card, Col, Flex, Row, Steps, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServerHealth } from '../layout/useServerHealth';
import { useSession } from '../session/useSession';
import { formatTime } from '../utils/date';
import { useConfigCounts } from './useConfigCounts';

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

export default function Dashboard() {
  const { t } = useTranslation('dashboard');
  const { user, roles } = useSession();
  const health = useServerHealth();
  const { counts, loading } = useConfigCounts();
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
        <Col xs={24} sm={12} xl={6}>
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
        <Col xs={24} sm={12} xl={6}>
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
        <Col xs={24} sm={12} xl={6}>
          <Tile
            testId="dashboard-campaigns"
            title={t('campaigns.title')}
            icon={<SendOutlined />}
            value={0}
            hint={
              site ? (
                <Hint to="/mass-mail/campaigns/create">{t('campaigns.hint')}</Hint>
              ) : (
                <Typography.Text type="secondary">{t('campaigns.hintApi')}</Typography.Text>
              )
            }
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Tile
            testId="dashboard-messages-today"
            title={t('messages.title')}
            icon={<MailOutlined />}
            value={0}
            hint={
              site ? (
                <Hint to="/mass-mail/contacts">{t('messages.hint')}</Hint>
              ) : (
                <Hint to="/documentation/api">{t('messages.hintApi')}</Hint>
              )
            }
          />
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
