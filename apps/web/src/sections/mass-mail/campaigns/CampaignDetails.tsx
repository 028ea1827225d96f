/** One campaign: its settings, its messages counted per status and a delivery chart, all live. */
import { ArrowLeftOutlined, PieChartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Flex, Result, Row, Skeleton, Statistic, Typography, theme } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { usePageTitle } from '../../../router/pageTitle';
import { formatTime } from '../../../utils/date';
import { roundedShares } from '../../../utils/shares';
import { configsQuery, groupsQuery } from '../../configs/api';
import { type Campaign, campaignQuery, checkQuery, contactListsQuery, LOOKUP_SIZE, templatesQuery } from './api';
import { CampaignActions } from './CampaignActions';
import { ChannelTag, ProgressBar, presentStatuses, progressOf, STATUS_COLORS, StateTag } from './labels';
import { useCampaignProgress } from './progress';

const DeliveryChart = lazy(() => import('./DeliveryChart'));

const TIME_PATTERN = 'YYYY-MM-DD HH:mm:ss';

function StatusCounts({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const number = new Intl.NumberFormat(i18n.language);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const entries = presentStatuses(campaign.counts);
  if (entries.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('view.counts.none')} data-testid="campaign-counts" />;
  }
  const sum = entries.reduce((total, entry) => total + entry.count, 0);
  const shares = roundedShares(
    entries.map((entry) => entry.count),
    campaign.total,
  );
  return (
    <div data-testid="campaign-counts" data-total={campaign.total}>
      {entries.map(({ status, count }, index) => (
        <Flex
          key={status}
          align="center"
          gap={12}
          data-testid={`campaign-count-${status}`}
          data-count={count}
          style={{ padding: '8px 0', borderBottom: `1px solid ${token.colorSplit}` }}
        >
          <span style={{ width: 10, height: 10, borderRadius: 3, background: STATUS_COLORS[status], flex: 'none' }} />
          <Typography.Text style={{ flex: 1 }}>{t(`statuses.${status}`)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums', width: 56, textAlign: 'end' }}>
            {campaign.total > 0 ? percent.format(shares[index]!) : ''}
          </Typography.Text>
          <Typography.Text strong style={{ fontVariantNumeric: 'tabular-nums', minWidth: 64, textAlign: 'end' }}>
            {number.format(count)}
          </Typography.Text>
        </Flex>
      ))}
      <Flex align="center" gap={12} style={{ padding: '10px 0 0' }}>
        <Typography.Text strong style={{ flex: 1 }}>
          {t('view.counts.total')}
        </Typography.Text>
        <Typography.Text strong data-testid="campaign-counts-total" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {number.format(sum)}
        </Typography.Text>
      </Flex>
    </div>
  );
}

function Settings({ campaign, suppressed }: { campaign: Campaign; suppressed: number | undefined }) {
  const { t, i18n } = useTranslation('campaigns');
  const lists = useQuery(contactListsQuery);
  const templates = useQuery(templatesQuery(campaign.channel));
  const configs = useQuery(configsQuery);
  const groups = useQuery(groupsQuery(campaign.channel, 1, LOOKUP_SIZE));
  const number = new Intl.NumberFormat(i18n.language);
  const list = lists.data?.items.find((entry) => entry.id === campaign.listId);
  const template = templates.data?.items.find((entry) => entry.id === campaign.templateId);
  const group = groups.data?.items.find((entry) => entry.id === campaign.groupId);
  const config = configs.data?.find((entry) => entry.id === campaign.configId);
  const time = (value: number | null) => (value === null ? '—' : formatTime(value, TIME_PATTERN));
  // 0 means no group as well: the server stores a null sent for it as 0.
  const route = campaign.groupId
    ? t('wizard.route.viaGroup', { name: group?.name ?? `#${campaign.groupId}` })
    : campaign.configId
      ? t('wizard.route.viaConfig', { name: config?.name ?? `#${campaign.configId}` })
      : t('view.settings.viaDefault');
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, md: 2, xl: 3 }}
      data-testid="campaign-settings"
      items={[
        { key: 'channel', label: t('view.settings.channel'), children: <ChannelTag channel={campaign.channel} /> },
        {
          key: 'list',
          label: t('view.settings.list'),
          children:
            campaign.listId === null ? (
              '—'
            ) : (
              <Link to={`/mass-mail/contacts/view/${campaign.listId}`}>{list?.name ?? `#${campaign.listId}`}</Link>
            ),
        },
        {
          key: 'template',
          label: t('view.settings.template'),
          children: template ? (
            <Link to={`/templates/edit/${encodeURIComponent(template.name)}`}>{template.name}</Link>
          ) : campaign.templateId === null ? (
            '—'
          ) : (
            `#${campaign.templateId}`
          ),
        },
        { key: 'route', label: t('view.settings.route'), children: route },
        {
          key: 'fallback',
          label: t('wizard.fallback.summaryLabel'),
          children: campaign.fallback
            ? t('wizard.fallback.summary', {
                other: t(`channels.${campaign.fallback.channel}`),
                template: campaign.fallback.templateName ?? `#${campaign.fallback.templateId}`,
              })
            : t('wizard.fallback.off'),
        },
        { key: 'scheduled', label: t('view.settings.scheduled'), children: time(campaign.scheduledAt) },
        { key: 'created', label: t('view.settings.created'), children: time(campaign.createdAt) },
        { key: 'started', label: t('view.settings.started'), children: time(campaign.startedAt) },
        { key: 'finished', label: t('view.settings.finished'), children: time(campaign.finishedAt) },
        {
          key: 'suppressed',
          label: t('view.settings.suppressed'),
          children: suppressed === undefined ? '—' : number.format(suppressed),
        },
      ]}
    />
  );
}

export default function CampaignDetails() {
  const { t, i18n } = useTranslation('campaigns');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const campaign = useQuery(campaignQuery(id));
  useCampaignProgress();
  usePageTitle(campaign.data?.name);
  const number = new Intl.NumberFormat(i18n.language);
  // Recipients are counted when the campaign starts; until then the wizard's check counts them, suppression applied.
  const unstarted =
    campaign.data !== undefined && ['draft', 'scheduled'].includes(campaign.data.state) && campaign.data.total === 0;
  const check = useQuery(checkQuery(unstarted ? id : undefined));

  if (campaign.isError || !Number.isInteger(id)) {
    return (
      <Card variant="borderless">
        <Result
          status="404"
          title={t('view.missing')}
          extra={<Button onClick={() => navigate('/mass-mail/campaigns')}>{t('wizard.toList')}</Button>}
        />
      </Card>
    );
  }
  if (!campaign.data) {
    return (
      <Card variant="borderless">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  }
  const data = campaign.data;
  const progress = progressOf(data);
  const recipients = unstarted ? check.data?.recipients : data.total;

  return (
    <Flex vertical gap={16} data-testid="campaign-view">
      <Card variant="borderless">
        <Flex justify="space-between" align="start" gap={16} wrap>
          <Flex vertical gap={8}>
            <Link to="/mass-mail/campaigns" style={{ fontSize: 13 }}>
              <ArrowLeftOutlined /> {t('wizard.toList')}
            </Link>
            <Flex align="center" gap={12} wrap>
              <Typography.Title level={4} style={{ margin: 0 }} data-testid="campaign-name">
                {data.name}
              </Typography.Title>
              <StateTag state={data.state} />
            </Flex>
          </Flex>
          <CampaignActions
            campaign={data}
            variant="buttons"
            openCopy
            hide={['view']}
            onDeleted={() => navigate('/mass-mail/campaigns')}
          />
        </Flex>
        {data.detail && (
          <Alert style={{ marginTop: 16 }} type={data.state === 'failed' ? 'error' : 'info'} showIcon title={data.detail} />
        )}
        {data.waitingForLimit && (
          <Alert
            style={{ marginTop: 16 }}
            type="warning"
            showIcon
            data-testid="campaign-limit-wait"
            title={t(`view.limitWait.${data.waitingForLimit.limit}`, {
              time: formatTime(data.waitingForLimit.until, TIME_PATTERN),
            })}
          />
        )}
        <div style={{ marginTop: 20 }}>
          <ProgressBar campaign={data} height={12} />
        </div>
        <Row gutter={[16, 16]} style={{ marginTop: 20 }}>
          {(
            [
              ['recipients', recipients],
              ['settled', progress.settled],
              ['delivered', progress.segments.delivered],
              ['failed', progress.segments.failed],
            ] as const
          ).map(([key, value]) => (
            <Col key={key} xs={12} md={6}>
              <Statistic
                title={t(`view.figures.${key}`)}
                value={value === undefined ? '—' : number.format(value)}
                data-testid={`campaign-figure-${key}`}
              />
            </Col>
          ))}
        </Row>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card variant="borderless" title={t('view.counts.title')} style={{ height: '100%' }}>
            <StatusCounts campaign={data} />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card variant="borderless" title={t('view.chart.title')} style={{ height: '100%' }}>
            {data.total > 0 ? (
              <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 300 }} />}>
                <DeliveryChart counts={data.counts} total={data.total} />
              </Suspense>
            ) : (
              <Empty
                image={<PieChartOutlined style={{ fontSize: 48, opacity: 0.3 }} />}
                description={t('view.chart.empty')}
                style={{ padding: '48px 0' }}
              />
            )}
          </Card>
        </Col>
      </Row>
      <Card variant="borderless" title={t('view.settings.title')}>
        <Settings campaign={data} suppressed={unstarted ? check.data?.suppressed : data.suppressed} />
      </Card>
    </Flex>
  );
}
