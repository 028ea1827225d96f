/** Provider configurations: the email and SMS providers Herald sends through, with balances, limits, filters and defaults. */

import {
  AppstoreOutlined,
  EditOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  PlusOutlined,
  ReloadOutlined,
  StarFilled,
  StarOutlined,
} from '@ant-design/icons';
import { type ChannelCategory, DEFAULT_PAGE_SIZE, MAX_BALANCE_CONFIGS } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Flex, Segmented, Space, Spin, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteAction } from '../../ui/DeleteAction';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { SearchBox } from '../../ui/SearchBox';
import { textList } from '../../ui/textList';
import { timeAgo } from '../../utils/date';
import { formatMoney } from '../../utils/money';
import {
  type Balance,
  balancesQuery,
  CONFIGS_KEY,
  configsApi,
  configsQuery,
  GROUPS_KEY,
  isSandbox,
  OPTIONS_KEY,
  optionsQuery,
  type ProviderConfig,
  typesQuery,
} from './api';
import { CategoryTag, countryName, findCountry, typeLabel } from './labels';
import { ProviderForm } from './ProviderForm';
import { SandboxInbox } from './SandboxInbox';
import { useNow } from './useNow';

type CategoryFilter = 'ALL' | ChannelCategory;

interface DrawerState {
  open: boolean;
  /** A new key per opening gives the form a fresh start. */
  key: number;
  config?: ProviderConfig;
}

function BalanceCell({
  entry,
  tracked,
  loading,
  now,
}: {
  entry: Balance | undefined;
  tracked: boolean;
  loading: boolean;
  now: number;
}) {
  const { t, i18n } = useTranslation('configs');
  if (!tracked) {
    return (
      <Tooltip title={t('providers.balance.notChecked', { n: MAX_BALANCE_CONFIGS })}>
        <Typography.Text type="secondary">—</Typography.Text>
      </Tooltip>
    );
  }
  if (!entry) return loading ? <Spin size="small" /> : <Typography.Text type="secondary">—</Typography.Text>;
  if (entry.error !== null || entry.balance === null) {
    return (
      <Tooltip title={entry.error}>
        <Typography.Text type="secondary">{t('providers.balance.unavailable')}</Typography.Text>
      </Tooltip>
    );
  }
  return (
    <Flex vertical>
      <Typography.Text strong data-testid="provider-balance">
        {formatMoney(entry.balance, entry.currency, i18n.language)}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('providers.balance.updated', { ago: timeAgo(entry.updatedAt, now) })}
      </Typography.Text>
    </Flex>
  );
}

function LimitsCell({ config }: { config: ProviderConfig }) {
  const { t, i18n } = useTranslation('configs');
  const format = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  if (config.limitPerDay === null && config.limitPerMonth === null)
    return <Typography.Text type="secondary">{t('providers.limits.none')}</Typography.Text>;
  return (
    <Flex vertical style={{ fontSize: 13 }}>
      {config.limitPerDay !== null && <span>{t('providers.limits.day', { value: format(config.limitPerDay) })}</span>}
      {config.limitPerMonth !== null && <span>{t('providers.limits.month', { value: format(config.limitPerMonth) })}</span>}
    </Flex>
  );
}

function FiltersCell({ config }: { config: ProviderConfig }) {
  const { t, i18n } = useTranslation('configs');
  if (config.filter.length === 0)
    return (
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        {t('providers.filter.none')}
      </Typography.Text>
    );
  return (
    <Flex gap={4} wrap>
      {config.filter.map((item) => {
        if (item.kind === 'operator')
          return (
            <Tag key={`operator-${item.value}`} style={{ marginInlineEnd: 0 }}>
              {t('providers.filter.operatorTag', { codes: item.value })}
            </Tag>
          );
        const country = findCountry(item.value);
        return (
          <Tooltip key={`country-${item.value}`} title={country ? countryName(country, i18n.language) : item.value}>
            <Tag style={{ marginInlineEnd: 0 }}>
              {country?.flag} {item.value}
            </Tag>
          </Tooltip>
        );
      })}
    </Flex>
  );
}

export default function Providers() {
  const { t } = useTranslation('configs');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const now = useNow();
  const types = useQuery(typesQuery);
  const configs = useQuery(configsQuery);
  const options = useQuery(optionsQuery);
  const [category, setCategory] = useState<CategoryFilter>('ALL');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [drawer, setDrawer] = useState<DrawerState>({ open: false, key: 0 });
  const [inbox, setInbox] = useState<{ open: boolean; category: ChannelCategory }>({ open: false, category: 'EMAIL' });

  const all = configs.data ?? [];
  const needle = search.trim().toLowerCase();
  const shown = all.filter(
    (config) =>
      (category === 'ALL' || config.category === category) &&
      (!needle || config.name.toLowerCase().includes(needle) || typeLabel(t, config.type).toLowerCase().includes(needle)),
  );
  const lastPage = Math.max(1, Math.ceil(shown.length / pageSize));
  const currentPage = Math.min(page, lastPage);
  // The spec's rule: balances are asked for the first five configurations on screen, no more.
  const balanceIds = shown
    .slice((currentPage - 1) * pageSize, currentPage * pageSize)
    .slice(0, MAX_BALANCE_CONFIGS)
    .map((config) => config.id);
  const balances = useQuery(balancesQuery(balanceIds));
  const balanceById = new Map((balances.data ?? []).map((entry) => [entry.providerConfigId, entry]));
  const defaults = new Set((options.data ?? []).map((option) => option.providerConfigId));
  const counts = { ALL: all.length, EMAIL: 0, SMS: 0 };
  for (const config of all) counts[config.category] += 1;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: CONFIGS_KEY });
    void queryClient.invalidateQueries({ queryKey: ['provider-configurations', 'balances'] });
    void queryClient.invalidateQueries({ queryKey: OPTIONS_KEY });
  };

  const afterChange = () => {
    refresh();
    void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
  };

  // Failed calls are already reported by the HTTP client, so the catches below only end the promise.
  const remove = (config: ProviderConfig) =>
    configsApi
      .remove(config.id)
      .then(() => {
        message.success(t('providers.delete.done', { name: config.name }));
        afterChange();
      })
      .catch(() => undefined);

  const makeDefault = (config: ProviderConfig) =>
    configsApi
      .makeDefault(config.id)
      .then((answer) => {
        queryClient.setQueryData(OPTIONS_KEY, answer);
        message.success(t('providers.default.done', { name: config.name, category: t(`categories.${config.category}`) }));
      })
      .catch(() => undefined);

  const openForm = (config?: ProviderConfig) => setDrawer((previous) => ({ open: true, key: previous.key + 1, config }));

  const columns: ColumnsType<ProviderConfig> = [
    {
      key: 'name',
      title: t('providers.columns.name'),
      width: 220,
      render: (_, config) => {
        const isDefault = defaults.has(config.id);
        return (
          <Flex align="center" gap={4}>
            <Tooltip
              title={
                isDefault
                  ? t('providers.default.is', { category: t(`categories.${config.category}`) })
                  : t('providers.default.make', { category: t(`categories.${config.category}`) })
              }
            >
              <Button
                type="text"
                size="small"
                data-testid="provider-default"
                data-default={isDefault}
                aria-pressed={isDefault}
                aria-label={t('providers.default.make', { category: t(`categories.${config.category}`) })}
                icon={isDefault ? <StarFilled style={{ color: token.colorWarning }} /> : <StarOutlined />}
                onClick={() => {
                  if (!isDefault) void makeDefault(config);
                }}
              />
            </Tooltip>
            <Typography.Text strong ellipsis={{ tooltip: config.name }}>
              {config.name}
            </Typography.Text>
          </Flex>
        );
      },
    },
    {
      key: 'type',
      title: t('providers.columns.type'),
      width: 180,
      render: (_, config) => <span style={{ whiteSpace: 'nowrap' }}>{typeLabel(t, config.type)}</span>,
    },
    {
      key: 'category',
      title: t('providers.columns.category'),
      width: 110,
      render: (_, config) => <CategoryTag category={config.category} />,
    },
    {
      key: 'balance',
      title: (
        <Space size={4}>
          {t('providers.columns.balance')}
          <Tooltip title={t('providers.balance.help', { n: MAX_BALANCE_CONFIGS })}>
            <InfoCircleOutlined style={{ color: token.colorTextTertiary }} />
          </Tooltip>
        </Space>
      ),
      width: 170,
      render: (_, config) => (
        <BalanceCell
          entry={balanceById.get(config.id)}
          tracked={balanceIds.includes(config.id)}
          loading={balances.isFetching}
          now={now}
        />
      ),
    },
    { key: 'limits', title: t('providers.columns.limits'), width: 150, render: (_, config) => <LimitsCell config={config} /> },
    { key: 'filter', title: t('providers.columns.filter'), render: (_, config) => <FiltersCell config={config} /> },
    {
      key: 'state',
      title: t('providers.columns.state'),
      width: 130,
      render: (_, config) => (
        <Badge
          status={config.active ? 'success' : 'default'}
          text={t(config.active ? 'state.active' : 'state.inactive')}
          style={{ whiteSpace: 'nowrap' }}
        />
      ),
    },
    {
      key: 'actions',
      title: t('providers.columns.actions'),
      align: 'right',
      width: 130,
      fixed: 'right',
      render: (_, config) => (
        <Space size={0}>
          {isSandbox(config.type) && (
            <Tooltip title={t('providers.inbox.open')}>
              <Button
                type="text"
                icon={<InboxOutlined />}
                data-testid="provider-inbox"
                aria-label={t('providers.inbox.open')}
                onClick={() => setInbox({ open: true, category: config.category })}
              />
            </Tooltip>
          )}
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              data-testid="provider-edit"
              aria-label={t('actions.edit')}
              onClick={() => openForm(config)}
            />
          </Tooltip>
          <DeleteAction
            title={t('providers.delete.title', { name: config.name })}
            description={t('providers.delete.description')}
            onConfirm={() => remove(config)}
            testId="provider-delete"
          />
        </Space>
      ),
    },
  ];

  const form = (
    <ProviderForm
      key={drawer.key}
      open={drawer.open}
      types={types.data ?? []}
      config={drawer.config}
      onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
      onSaved={() => {
        setDrawer((previous) => ({ ...previous, open: false }));
        afterChange();
      }}
    />
  );

  if (configs.isSuccess && all.length === 0) {
    return (
      <>
        <EmptyState
          testId="providers-empty"
          icon={<AppstoreOutlined />}
          title={t('providers.empty.title')}
          description={t('providers.empty.description')}
          capabilities={textList(t, 'providers.empty.capabilities')}
          actions={
            <Button type="primary" icon={<PlusOutlined />} data-testid="providers-add" onClick={() => openForm()}>
              {t('providers.add')}
            </Button>
          }
        />
        {form}
      </>
    );
  }

  return (
    <Card variant="borderless" data-testid="providers">
      <ScreenHeader title={t('providers.title')} subtitle={t('providers.subtitle')}>
        <Space wrap>
          <Button
            icon={<ReloadOutlined />}
            data-testid="providers-refresh"
            loading={balances.isFetching || configs.isFetching}
            onClick={refresh}
          >
            {t('providers.refresh')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} data-testid="providers-add" onClick={() => openForm()}>
            {t('providers.add')}
          </Button>
        </Space>
      </ScreenHeader>
      <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
        <Segmented<CategoryFilter>
          data-testid="providers-category"
          value={category}
          onChange={(value) => {
            setCategory(value);
            setPage(1);
          }}
          options={(['ALL', 'EMAIL', 'SMS'] as const).map((value) => ({
            value,
            label: (
              <Space size={6}>
                {t(`categories.${value}`)}
                <Typography.Text type="secondary">{counts[value]}</Typography.Text>
              </Space>
            ),
          }))}
        />
        <SearchBox
          testId="providers-search"
          placeholder={t('providers.search')}
          value={search}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
      </Flex>
      <Table<ProviderConfig>
        rowKey="id"
        columns={columns}
        dataSource={shown}
        loading={configs.isPending}
        scroll={{ x: 1200 }}
        onRow={(config) => ({ 'data-testid': `provider-row-${config.name}` }) as HTMLAttributes<HTMLElement>}
        pagination={{
          current: currentPage,
          pageSize,
          total: shown.length,
          hideOnSinglePage: shown.length <= DEFAULT_PAGE_SIZE,
          showSizeChanger: true,
          onChange: (nextPage, nextSize) => {
            setPage(nextSize === pageSize ? nextPage : 1);
            setPageSize(nextSize);
          },
        }}
        locale={{ emptyText: t('providers.noMatch') }}
      />
      {form}
      <SandboxInbox
        key={inbox.category}
        open={inbox.open}
        category={inbox.category}
        configs={all}
        onClose={() => setInbox((previous) => ({ ...previous, open: false }))}
      />
    </Card>
  );
}
