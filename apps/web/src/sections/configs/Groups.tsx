/** Provider groups: configurations ordered by priority for failover, one list per channel. */
import { ClusterOutlined, DeleteOutlined, EditOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import { type ChannelCategory, UNSELECTED_CONFIG_PRIORITY } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Popconfirm, Segmented, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { useServerPaging } from '../../ui/serverPaging';
import { textList } from '../../ui/textList';
import { configsQuery, GROUPS_KEY, type GroupMember, groupsApi, groupsQuery, type ProviderGroup } from './api';
import { GroupForm } from './GroupForm';
import { CategoryIcon, typeLabel } from './labels';

interface FormState {
  open: boolean;
  /** A new key per opening gives the form a fresh start. */
  key: number;
  group?: ProviderGroup;
}

function MemberChain({ members }: { members: GroupMember[] }) {
  const { t } = useTranslation('configs');
  const { token } = theme.useToken();
  const ordered = [...members].sort((a, b) => a.priority - b.priority);
  return (
    <Flex align="center" gap={4} wrap data-testid="group-members">
      {ordered.map((member, index) => (
        <Flex key={member.providerConfigId} align="center" gap={4}>
          {index > 0 && <RightOutlined style={{ fontSize: 10, color: token.colorTextQuaternary }} />}
          <Tooltip
            title={
              <>
                {typeLabel(t, member.type)}
                {!member.active && ` · ${t('state.inactive')}`}
              </>
            }
          >
            <Tag
              data-testid="group-member"
              color={member.active ? 'blue' : undefined}
              style={{ marginInlineEnd: 0, opacity: member.active ? 1 : 0.6 }}
            >
              <span style={{ fontWeight: 600, marginInlineEnd: 6, fontVariantNumeric: 'tabular-nums' }}>{index + 1}</span>
              {member.name}
            </Tag>
          </Tooltip>
        </Flex>
      ))}
    </Flex>
  );
}

export default function Groups() {
  const { t } = useTranslation('configs');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  // Read once: kept-alive tabs share the address bar, so the category then lives in this screen's own state.
  const [category, setCategory] = useState<ChannelCategory>(() => (searchParams.get('category') === 'SMS' ? 'SMS' : 'EMAIL'));
  const paging = useServerPaging();
  const [form, setForm] = useState<FormState>({ open: false, key: 0 });
  const groups = useQuery(groupsQuery(category, paging.page, paging.size));
  const configs = useQuery(configsQuery);
  const total = groups.data?.total ?? 0;

  const openForm = (group?: ProviderGroup) => setForm((previous) => ({ open: true, key: previous.key + 1, group }));

  // A failed delete is already reported by the HTTP client; the catch only ends the promise.
  const remove = (group: ProviderGroup) =>
    groupsApi
      .remove(group.id)
      .then(() => {
        message.success(t('groups.delete.done', { name: group.name }));
        paging.showPreviousIfEmptied(groups.data?.items.length ?? 0);
        void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
      })
      .catch(() => undefined);

  const columns: ColumnsType<ProviderGroup> = [
    {
      key: 'name',
      title: t('groups.columns.name'),
      width: 260,
      render: (_, group) => <Typography.Text strong>{group.name}</Typography.Text>,
    },
    {
      key: 'configs',
      title: t('groups.columns.configs'),
      render: (_, group) => <MemberChain members={group.configs} />,
    },
    {
      key: 'actions',
      title: t('groups.columns.actions'),
      align: 'right',
      width: 110,
      render: (_, group) => (
        <Space size={0}>
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              data-testid="group-edit"
              aria-label={t('actions.edit')}
              onClick={() => openForm(group)}
            />
          </Tooltip>
          <Popconfirm
            title={t('groups.delete.title', { name: group.name })}
            description={t('groups.delete.description')}
            okText={t('actions.delete')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(group)}
          >
            <Tooltip title={t('actions.delete')}>
              <Button type="text" danger icon={<DeleteOutlined />} data-testid="group-delete" aria-label={t('actions.delete')} />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" data-testid="groups">
      <ScreenHeader title={t('groups.title')} subtitle={t('groups.subtitle')}>
        <Space wrap>
          <Segmented<ChannelCategory>
            data-testid="groups-category"
            value={category}
            onChange={(value) => {
              setCategory(value);
              paging.toFirstPage();
            }}
            options={(['EMAIL', 'SMS'] as const).map((value) => ({
              value,
              label: (
                <Space size={6}>
                  <CategoryIcon category={value} />
                  {t(`categories.${value}`)}
                </Space>
              ),
            }))}
          />
          <Button type="primary" icon={<PlusOutlined />} data-testid="groups-add" onClick={() => openForm()}>
            {t('groups.add')}
          </Button>
        </Space>
      </ScreenHeader>
      {groups.isSuccess && total === 0 ? (
        <EmptyState
          testId="groups-empty"
          icon={<ClusterOutlined />}
          title={t('groups.empty.title', { category: t(`categories.${category}`) })}
          description={t('groups.empty.description')}
          capabilities={textList(t, 'groups.empty.capabilities', { priority: UNSELECTED_CONFIG_PRIORITY })}
          actions={
            <Space wrap>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm()}>
                {t('groups.add')}
              </Button>
              <Button onClick={() => navigate('/configs/providers')}>{t('groups.toProviders')}</Button>
            </Space>
          }
        />
      ) : (
        <Table<ProviderGroup>
          rowKey="id"
          columns={columns}
          dataSource={groups.data?.items ?? []}
          loading={groups.isPending || (groups.isFetching && groups.isPlaceholderData)}
          onRow={(group) => ({ 'data-testid': `group-row-${group.name}` }) as HTMLAttributes<HTMLElement>}
          pagination={paging.pagination(total)}
        />
      )}
      <GroupForm
        key={form.key}
        open={form.open}
        category={form.group?.category ?? category}
        configs={(configs.data ?? []).filter((config) => config.category === (form.group?.category ?? category))}
        group={form.group}
        onClose={() => setForm((previous) => ({ ...previous, open: false }))}
        onSaved={() => {
          setForm((previous) => ({ ...previous, open: false }));
          void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
        }}
      />
    </Card>
  );
}
