/** Campaigns: every campaign with its state and live delivery progress, filtered by state. */
import { PlusOutlined, SendOutlined } from '@ant-design/icons';
import { CAMPAIGN_STATES, type CampaignState } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Select, Space, Table, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../ui/EmptyState';
import { ScreenHeader } from '../../../ui/ScreenHeader';
import { useServerPaging } from '../../../ui/serverPaging';
import { textList } from '../../../ui/textList';
import { formatTime } from '../../../utils/date';
import { type Campaign, campaignsQuery } from './api';
import { CampaignActions } from './CampaignActions';
import { ChannelTag, ProgressBar, StateTag } from './labels';
import { useCampaignProgress } from './progress';

const TIME_PATTERN = 'YYYY-MM-DD HH:mm';

function WhenCell({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaigns');
  const [key, value] =
    campaign.state === 'scheduled'
      ? ['list.when.scheduled', campaign.scheduledAt]
      : campaign.finishedAt !== null
        ? ['list.when.finished', campaign.finishedAt]
        : campaign.startedAt !== null
          ? ['list.when.started', campaign.startedAt]
          : ['list.when.created', campaign.createdAt];
  return (
    <Flex vertical>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t(key)}
      </Typography.Text>
      <span style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>{formatTime(value, TIME_PATTERN)}</span>
    </Flex>
  );
}

export default function CampaignList() {
  const { t, i18n } = useTranslation('campaigns');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [state, setState] = useState<CampaignState>();
  const paging = useServerPaging();
  const campaigns = useQuery(campaignsQuery(state, paging.page, paging.size));
  useCampaignProgress();
  const total = campaigns.data?.total ?? 0;
  const number = new Intl.NumberFormat(i18n.language);

  const create = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      data-testid="campaigns-create"
      onClick={() => navigate('/mass-mail/campaigns/create')}
    >
      {t('list.create')}
    </Button>
  );

  if (campaigns.isSuccess && total === 0 && state === undefined) {
    return (
      <EmptyState
        testId="campaigns-empty"
        icon={<SendOutlined />}
        title={t('list.empty.title')}
        description={t('list.empty.description')}
        capabilities={textList(t, 'list.empty.capabilities')}
        actions={
          <Space wrap>
            {create}
            <Button onClick={() => navigate('/mass-mail/contacts')}>{t('list.empty.contacts')}</Button>
          </Space>
        }
      />
    );
  }

  const columns: ColumnsType<Campaign> = [
    {
      key: 'name',
      title: t('list.columns.name'),
      render: (_, campaign) => (
        <Flex vertical gap={4} align="start">
          <Link to={`/mass-mail/campaigns/view/${campaign.id}`} style={{ fontWeight: 600 }}>
            {campaign.name}
          </Link>
          <ChannelTag channel={campaign.channel} />
        </Flex>
      ),
    },
    {
      key: 'state',
      title: t('list.columns.state'),
      width: 140,
      render: (_, campaign) => <StateTag state={campaign.state} />,
    },
    {
      key: 'progress',
      title: t('list.columns.progress'),
      width: 260,
      render: (_, campaign) => <ProgressBar campaign={campaign} />,
    },
    {
      key: 'recipients',
      title: t('list.columns.recipients'),
      align: 'right',
      width: 120,
      render: (_, campaign) =>
        campaign.total > 0 ? (
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>{number.format(campaign.total)}</span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { key: 'when', title: t('list.columns.when'), width: 170, render: (_, campaign) => <WhenCell campaign={campaign} /> },
    {
      key: 'actions',
      title: t('list.columns.actions'),
      align: 'right',
      width: 200,
      render: (_, campaign) => <CampaignActions campaign={campaign} variant="icons" />,
    },
  ];

  return (
    <Card variant="borderless" data-testid="campaigns">
      <ScreenHeader title={t('list.title')} subtitle={t('list.subtitle')}>
        <Space wrap>
          <Select<CampaignState>
            allowClear
            data-testid="campaigns-state-filter"
            placeholder={t('list.allStates')}
            style={{ width: 200 }}
            value={state}
            onChange={(value) => {
              setState(value);
              paging.toFirstPage();
            }}
            options={CAMPAIGN_STATES.map((value) => ({ value, label: t(`states.${value}`) }))}
          />
          {create}
        </Space>
      </ScreenHeader>
      <Table<Campaign>
        rowKey="id"
        columns={columns}
        dataSource={campaigns.data?.items ?? []}
        loading={campaigns.isPending || (campaigns.isFetching && campaigns.isPlaceholderData)}
        scroll={{ x: 1000 }}
        onRow={(campaign) => ({ 'data-testid': `campaign-row-${campaign.name}` }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <Typography.Text type="secondary" style={{ display: 'block', padding: token.paddingLG }}>
              {t('list.noMatch')}
            </Typography.Text>
          ),
        }}
        pagination={paging.pagination(total)}
      />
    </Card>
  );
}
