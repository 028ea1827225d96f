/** Contact lists with their counts: create, rename, delete, and the way into each list's contacts and imports. */

import { EditOutlined, EyeOutlined, PlusOutlined, SyncOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DeleteAction } from '../../../ui/DeleteAction';
import { EmptyState } from '../../../ui/EmptyState';
import { ScreenHeader } from '../../../ui/ScreenHeader';
import { SearchBox } from '../../../ui/SearchBox';
import { useServerPaging } from '../../../ui/serverPaging';
import { textList } from '../../../ui/textList';
import { type ContactCounts, type ContactList, LISTS_KEY, listsApi, listsQuery } from './api';
import { ListForm } from './ListForm';
import { countryLabel, formatNumber } from './labels';

interface FormState {
  open: boolean;
  /** A new key per opening gives the form a fresh start. */
  key: number;
  list?: ContactList;
}

/** A count, greyed when zero so the numbers that matter stand out. */
function Count({
  value,
  tone,
  strong,
  testId,
}: {
  value: number;
  tone?: 'warning' | 'danger';
  strong?: boolean;
  testId: string;
}) {
  const { i18n } = useTranslation();
  return (
    <Typography.Text
      data-testid={testId}
      strong={strong}
      type={value === 0 ? 'secondary' : tone}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {formatNumber(value, i18n.language)}
    </Typography.Text>
  );
}

export function ContactLists() {
  const { t, i18n } = useTranslation('contacts');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const paging = useServerPaging();
  const [search, setSearch] = useState('');
  const [form, setForm] = useState<FormState>({ open: false, key: 0 });
  const lists = useQuery(listsQuery(paging.page, paging.size, search));
  const total = lists.data?.total ?? 0;

  const openForm = (list?: ContactList) => setForm((previous) => ({ open: true, key: previous.key + 1, list }));

  // A failed delete is already reported by the HTTP client; the catch only ends the promise.
  const remove = (list: ContactList) =>
    listsApi
      .remove(list.id)
      .then(() => {
        message.success(t('lists.delete.done', { name: list.name }));
        paging.showPreviousIfEmptied(lists.data?.items.length ?? 0);
        void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
      })
      .catch(() => undefined);

  const count = (key: keyof ContactCounts, tone?: 'warning' | 'danger') => (_: unknown, list: ContactList) => (
    <Count value={list.counts[key]} tone={tone} strong={key === 'total'} testId={`contact-list-count-${key}`} />
  );

  const columns: ColumnsType<ContactList> = [
    {
      key: 'name',
      title: t('lists.columns.name'),
      render: (_, list) => (
        <Flex vertical gap={2}>
          <Space size={8} wrap>
            <Link to={`/mass-mail/contacts/view/${list.id}`} style={{ fontWeight: 600 }}>
              {list.name}
            </Link>
            {list.state === 'importing' && (
              <Tag color="processing" icon={<SyncOutlined spin />} data-testid="contact-list-state">
                {t('lists.state.importing')}
              </Tag>
            )}
          </Space>
          {list.defaultCountry && (
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {t('lists.country', { country: countryLabel(list.defaultCountry, i18n.language) })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'total', title: t('counts.total'), align: 'right', render: count('total') },
    { key: 'withEmail', title: t('counts.withEmail'), align: 'right', render: count('withEmail') },
    { key: 'withPhone', title: t('counts.withPhone'), align: 'right', render: count('withPhone') },
    { key: 'unsubscribed', title: t('counts.unsubscribed'), align: 'right', render: count('unsubscribed', 'warning') },
    { key: 'bounced', title: t('counts.bounced'), align: 'right', render: count('bounced', 'warning') },
    { key: 'blocked', title: t('counts.blocked'), align: 'right', render: count('blocked', 'danger') },
    {
      key: 'actions',
      title: t('lists.columns.actions'),
      align: 'right',
      fixed: 'right',
      render: (_, list) => (
        <Space size={2}>
          <Button
            size="small"
            type="link"
            icon={<EyeOutlined />}
            data-testid="contact-list-view"
            onClick={() => navigate(`/mass-mail/contacts/view/${list.id}`)}
          >
            {t('lists.view')}
          </Button>
          <Button
            size="small"
            type="link"
            icon={<UploadOutlined />}
            data-testid="contact-list-import"
            onClick={() => navigate(`/mass-mail/contacts/import?list=${list.id}`)}
          >
            {t('lists.import')}
          </Button>
          <Tooltip title={t('lists.rename')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              data-testid="contact-list-rename"
              aria-label={t('lists.rename')}
              onClick={() => openForm(list)}
            />
          </Tooltip>
          <DeleteAction
            title={t('lists.delete.title', { name: list.name })}
            description={t('lists.delete.description', { count: list.counts.total })}
            onConfirm={() => remove(list)}
            testId="contact-list-delete"
            size="small"
            disabledReason={list.state === 'importing' ? t('lists.delete.busy') : undefined}
          />
        </Space>
      ),
    },
  ];

  const firstRun = lists.isSuccess && total === 0 && !search;

  return (
    <Card variant="borderless" data-testid="contact-lists">
      <ScreenHeader title={t('lists.title')} subtitle={t('lists.subtitle')}>
        <Space wrap>
          {!firstRun && (
            <SearchBox
              testId="contact-lists-search"
              placeholder={t('lists.search')}
              width={240}
              onSearch={(text) => {
                setSearch(text.trim());
                paging.toFirstPage();
              }}
            />
          )}
          <Button
            icon={<UploadOutlined />}
            data-testid="contact-lists-import"
            onClick={() => navigate('/mass-mail/contacts/import')}
          >
            {t('lists.importFile')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} data-testid="contact-lists-add" onClick={() => openForm()}>
            {t('lists.add')}
          </Button>
        </Space>
      </ScreenHeader>
      {firstRun ? (
        <EmptyState
          testId="contact-lists-empty"
          icon={<TeamOutlined />}
          title={t('lists.empty.title')}
          description={t('lists.empty.description')}
          capabilities={textList(t, 'lists.empty.capabilities')}
          actions={
            <Space wrap>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm()}>
                {t('lists.add')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => navigate('/mass-mail/contacts/import')}>
                {t('lists.importFile')}
              </Button>
            </Space>
          }
        />
      ) : (
        <Table<ContactList>
          size="middle"
          rowKey="id"
          columns={columns}
          dataSource={lists.data?.items ?? []}
          loading={lists.isPending || (lists.isFetching && lists.isPlaceholderData)}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('lists.noMatch') }}
          onRow={(list) => ({ 'data-testid': `contact-list-row-${list.name}` }) as HTMLAttributes<HTMLElement>}
          pagination={paging.pagination(total)}
        />
      )}
      <ListForm
        key={form.key}
        open={form.open}
        list={form.list}
        onClose={() => setForm((previous) => ({ ...previous, open: false }))}
        onSaved={() => {
          setForm((previous) => ({ ...previous, open: false }));
          void queryClient.invalidateQueries({ queryKey: LISTS_KEY });
        }}
      />
    </Card>
  );
}
