/** One contact list: its counts and its contacts, searched, filtered, edited, acted on in bulk and exported. */
import {
  ArrowLeftOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FilterOutlined,
  PlusOutlined,
  SearchOutlined,
  StopOutlined,
  SyncOutlined,
  TeamOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { ContactStatus } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Divider,
  Flex,
  Input,
  Popconfirm,
  Result,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/http';
import { usePageTitle } from '../../../router/pageTitle';
import { DeleteAction } from '../../../ui/DeleteAction';
import { EmptyState } from '../../../ui/EmptyState';
import { useServerPaging } from '../../../ui/serverPaging';
import { textList } from '../../../ui/textList';
import { formatTime } from '../../../utils/date';
import {
  type BulkAction,
  type Contact,
  type ContactCounts,
  type ContactFilter,
  type ContactList,
  contactsApi,
  contactsQuery,
  downloadFile,
  exportPath,
  LISTS_KEY,
  listQuery,
} from './api';
import { ContactDrawer } from './ContactDrawer';
import { CountryFlag, countryLabel, formatNumber, languageName, StatusTag, useStatusOptions } from './labels';

/** How long typing pauses before the search is sent. */
const SEARCH_PAUSE_MS = 300;

interface DrawerState {
  open: boolean;
  /** A new key per opening gives the form a fresh start. */
  key: number;
  contact?: Contact;
}

/** Attribute tags shown in a row before the rest fold into "+N". */
const SHOWN_ATTRIBUTES = 3;
const COUNT_KEYS: (keyof ContactCounts)[] = ['total', 'withEmail', 'withPhone', 'unsubscribed', 'bounced', 'blocked'];

/** The filter without its empty parts, so equal filters make equal query keys and clean export addresses. */
function cleanFilter(filter: ContactFilter): ContactFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined && value !== '')) as ContactFilter;
}

function Attributes({ attributes }: { attributes: Record<string, string> }) {
  const { token } = theme.useToken();
  const entries = Object.entries(attributes);
  if (entries.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  const rest = entries.slice(SHOWN_ATTRIBUTES);
  return (
    <Flex gap={4} wrap style={{ maxWidth: 320 }}>
      {entries.slice(0, SHOWN_ATTRIBUTES).map(([name, value]) => (
        <Tag
          key={name}
          style={{ marginInlineEnd: 0, maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}
          title={`${name}: ${value}`}
        >
          <span style={{ color: token.colorTextTertiary }}>{name}:</span> {value}
        </Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.map(([name, value]) => `${name}: ${value}`).join(', ')}>
          <Tag style={{ marginInlineEnd: 0 }}>+{rest.length}</Tag>
        </Tooltip>
      )}
    </Flex>
  );
}

function CountsStrip({ list }: { list: ContactList }) {
  const { t, i18n } = useTranslation('contacts');
  const { token } = theme.useToken();
  return (
    <Flex
      gap={0}
      wrap
      data-testid="contacts-counts"
      style={{ border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadiusLG, marginBottom: 20 }}
    >
      {COUNT_KEYS.map((key, index) => (
        <div
          key={key}
          style={{
            flex: '1 1 140px',
            padding: '12px 20px',
            borderInlineStart: index > 0 ? `1px solid ${token.colorBorderSecondary}` : undefined,
          }}
        >
          <Statistic
            data-testid={`contacts-count-${key}`}
            title={t(`counts.${key}`)}
            value={formatNumber(list.counts[key], i18n.language)}
            styles={{ content: { fontSize: 22 } }}
          />
        </div>
      ))}
    </Flex>
  );
}

export function ContactsView() {
  const { t, i18n } = useTranslation('contacts');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const listId = Number(params.id);
  const validId = Number.isInteger(listId) && listId > 0;
  const statusOptions = useStatusOptions();

  const paging = useServerPaging();
  const [filter, setFilter] = useState<ContactFilter>({});
  const [searchText, setSearchText] = useState('');
  const [attributeValue, setAttributeValue] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const [busy, setBusy] = useState<BulkAction | 'export' | null>(null);
  const [drawer, setDrawer] = useState<DrawerState>({ open: false, key: 0 });

  const list = useQuery({ ...listQuery(listId), enabled: validId });
  usePageTitle(list.data?.name);
  const contacts = useQuery({ ...contactsQuery(listId, filter, paging.page, paging.size), enabled: validId && list.isSuccess });
  const items = contacts.data?.items ?? [];
  const total = contacts.data?.total ?? 0;
  const filtered = Object.keys(filter).length > 0;

  const applyFilter = (next: ContactFilter) => {
    setFilter(cleanFilter(next));
    paging.toFirstPage();
    setSelected([]);
    setAllMatching(false);
  };

  const refresh = () => void queryClient.invalidateQueries({ queryKey: LISTS_KEY });

  // The search runs as the user types, once they pause: a list of millions is not asked at every key.
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const search = (text: string, pause = SEARCH_PAUSE_MS) => {
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => applyFilter({ ...filter, search: text.trim() || undefined }), pause);
  };
  useEffect(() => () => clearTimeout(searchTimer.current), []);

  const openDrawer = (contact?: Contact) => setDrawer((previous) => ({ open: true, key: previous.key + 1, contact }));

  // Failures are already reported by the HTTP client; the catches only end the promises.
  const removeOne = (contact: Contact) =>
    contactsApi
      .remove(listId, contact.id)
      .then(() => {
        message.success(t('view.deleted'));
        setSelected((previous) => previous.filter((id) => id !== contact.id));
        paging.showPreviousIfEmptied(items.length);
        refresh();
      })
      .catch(() => undefined);

  const bulk = (action: BulkAction) => {
    setBusy(action);
    contactsApi
      .bulk(listId, action, allMatching ? { filter } : { ids: selected })
      .then(({ affected }) => {
        message.success(t(`view.bulk.${action}Done`, { count: affected, n: formatNumber(affected, i18n.language) }));
        if (action === 'delete') paging.toFirstPage();
        setSelected([]);
        setAllMatching(false);
        refresh();
      })
      .catch(() => undefined)
      .finally(() => setBusy(null));
  };

  const exportCsv = (current: ContactList) => {
    setBusy('export');
    downloadFile(exportPath(listId), { ...filter }, `${current.name}.csv`)
      .catch(() => undefined)
      .finally(() => setBusy(null));
  };

  if (!validId || (list.isError && !list.data)) {
    const missing = !validId || (list.error instanceof ApiError && list.error.status === 404);
    return (
      <Card variant="borderless">
        <Result
          status={missing ? '404' : 'error'}
          data-testid="contacts-list-missing"
          title={missing ? t('view.missing.title') : t('view.failed')}
          subTitle={missing ? t('view.missing.description') : list.error?.message}
          extra={
            <Space>
              {!missing && (
                <Button type="primary" onClick={() => void list.refetch()}>
                  {t('actions.retry')}
                </Button>
              )}
              <Button type={missing ? 'primary' : 'default'} onClick={() => navigate('/mass-mail/contacts')}>
                {t('actions.allLists')}
              </Button>
            </Space>
          }
        />
      </Card>
    );
  }

  const current = list.data;
  const columns: ColumnsType<Contact> = [
    {
      key: 'email',
      title: t('fields.email'),
      render: (_, contact) =>
        contact.email ? (
          <Typography.Text data-testid="contact-email-cell">{contact.email}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'phone',
      title: t('fields.phone'),
      render: (_, contact) =>
        contact.phone ? (
          <Space size={6} style={{ whiteSpace: 'nowrap' }}>
            <CountryFlag code={contact.country} />
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{contact.phone}</span>
          </Space>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'name',
      title: t('fields.name'),
      render: (_, contact) => contact.name ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    { key: 'status', title: t('fields.status'), render: (_, contact) => <StatusTag status={contact.status} /> },
    {
      key: 'locale',
      title: t('view.columns.locale'),
      render: (_, contact) =>
        contact.language || contact.timeZone ? (
          <Flex vertical>
            {contact.language && <span>{languageName(contact.language, i18n.language)}</span>}
            {contact.timeZone && (
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {contact.timeZone}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'attributes',
      title: t('view.columns.attributes'),
      render: (_, contact) => <Attributes attributes={contact.attributes} />,
    },
    {
      key: 'updated',
      title: t('view.columns.updated'),
      render: (_, contact) => (
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(contact.updatedAt, 'YYYY-MM-DD HH:mm')}
        </Typography.Text>
      ),
    },
    {
      key: 'actions',
      align: 'right',
      fixed: 'right',
      width: 96,
      render: (_, contact) => (
        <Space size={0}>
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              data-testid="contact-edit"
              aria-label={t('actions.edit')}
              onClick={() => openDrawer(contact)}
            />
          </Tooltip>
          <DeleteAction
            title={t('view.deleteOne.title')}
            description={t('view.deleteOne.description', { address: contact.email ?? contact.phone ?? '' })}
            onConfirm={() => removeOne(contact)}
            testId="contact-delete"
          />
        </Space>
      ),
    },
  ];

  const selectedCount = allMatching ? total : selected.length;
  const selectedKeys = allMatching ? items.map((contact) => contact.id) : selected;
  const canSelectAll =
    !allMatching && total > items.length && items.length > 0 && items.every((contact) => selected.includes(contact.id));
  const firstRun = current !== undefined && current.counts.total === 0 && !filtered && current.state !== 'importing';

  return (
    <Card variant="borderless" data-testid="contacts-view" loading={list.isPending}>
      {current && (
        <>
          <Flex justify="space-between" align="start" gap={16} wrap style={{ marginBottom: 20 }}>
            <Flex gap={12} align="start">
              <Tooltip title={t('actions.allLists')}>
                <Button
                  type="text"
                  icon={<ArrowLeftOutlined />}
                  aria-label={t('actions.allLists')}
                  onClick={() => navigate('/mass-mail/contacts')}
                />
              </Tooltip>
              <div>
                <Space size={8} wrap>
                  <Typography.Title level={4} style={{ margin: 0 }} data-testid="contacts-list-name">
                    {current.name}
                  </Typography.Title>
                  {current.state === 'importing' && (
                    <Tag color="processing" icon={<SyncOutlined spin />}>
                      {t('lists.state.importing')}
                    </Tag>
                  )}
                </Space>
                <div>
                  <Typography.Text type="secondary">
                    {current.defaultCountry
                      ? t('view.subtitleCountry', { country: countryLabel(current.defaultCountry, i18n.language) })
                      : t('view.subtitle')}
                  </Typography.Text>
                </div>
              </div>
            </Flex>
            <Space wrap>
              <Button icon={<PlusOutlined />} data-testid="contacts-add" onClick={() => openDrawer()}>
                {t('view.add')}
              </Button>
              <Button
                icon={<UploadOutlined />}
                data-testid="contacts-import"
                onClick={() => navigate(`/mass-mail/contacts/import?list=${listId}`)}
              >
                {t('lists.import')}
              </Button>
              <Tooltip title={filtered ? t('view.exportFiltered') : undefined}>
                <Button
                  type="primary"
                  icon={<DownloadOutlined />}
                  data-testid="contacts-export"
                  loading={busy === 'export'}
                  disabled={current.counts.total === 0}
                  onClick={() => exportCsv(current)}
                >
                  {t('view.export')}
                </Button>
              </Tooltip>
            </Space>
          </Flex>
          <CountsStrip list={current} />
          {firstRun ? (
            <EmptyState
              testId="contacts-empty"
              icon={<TeamOutlined />}
              title={t('view.empty.title')}
              description={t('view.empty.description')}
              capabilities={textList(t, 'view.empty.capabilities')}
              actions={
                <Space wrap>
                  <Button
                    type="primary"
                    icon={<UploadOutlined />}
                    onClick={() => navigate(`/mass-mail/contacts/import?list=${listId}`)}
                  >
                    {t('lists.import')}
                  </Button>
                  <Button icon={<PlusOutlined />} onClick={() => openDrawer()}>
                    {t('view.add')}
                  </Button>
                </Space>
              }
            />
          ) : (
            <>
              <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
                <Input
                  allowClear
                  data-testid="contacts-search"
                  prefix={<SearchOutlined />}
                  placeholder={t('view.search')}
                  aria-label={t('view.search')}
                  style={{ width: 'min(300px, 100%)' }}
                  value={searchText}
                  onChange={(event) => {
                    setSearchText(event.target.value);
                    search(event.target.value);
                  }}
                  onPressEnter={() => search(searchText, 0)}
                />
                <Select<ContactStatus>
                  allowClear
                  data-testid="contacts-status-filter"
                  aria-label={t('fields.status')}
                  placeholder={t('view.allStatuses')}
                  style={{ width: 180 }}
                  value={filter.status}
                  options={statusOptions}
                  onChange={(status) => applyFilter({ ...filter, status })}
                />
                <Space.Compact>
                  <Select<string>
                    allowClear
                    data-testid="contacts-attribute-filter"
                    placeholder={
                      <Space size={6}>
                        <FilterOutlined />
                        {t('view.attribute')}
                      </Space>
                    }
                    aria-label={t('view.attribute')}
                    // Narrower on a phone, so the pair fits a 390 px screen.
                    style={{ width: 'min(180px, 40vw)' }}
                    value={filter.attribute}
                    disabled={current.attributeNames.length === 0}
                    options={current.attributeNames.map((name) => ({ value: name, label: name }))}
                    onChange={(attribute) => {
                      if (!attribute) setAttributeValue('');
                      applyFilter({ ...filter, attribute, value: attribute ? attributeValue.trim() : undefined });
                    }}
                  />
                  <Input
                    allowClear
                    data-testid="contacts-attribute-value"
                    placeholder={t('view.attributeValue')}
                    aria-label={t('view.attributeValue')}
                    style={{ width: 'min(200px, 50vw)' }}
                    disabled={!filter.attribute}
                    value={attributeValue}
                    onChange={(event) => {
                      setAttributeValue(event.target.value);
                      if (!event.target.value) applyFilter({ ...filter, value: undefined });
                    }}
                    onPressEnter={() => applyFilter({ ...filter, value: attributeValue.trim() })}
                    onBlur={() => {
                      if (attributeValue.trim() !== (filter.value ?? ''))
                        applyFilter({ ...filter, value: attributeValue.trim() });
                    }}
                  />
                </Space.Compact>
                {filtered && (
                  <Button
                    type="link"
                    data-testid="contacts-filters-reset"
                    onClick={() => {
                      setSearchText('');
                      setAttributeValue('');
                      applyFilter({});
                    }}
                  >
                    {t('view.resetFilters')}
                  </Button>
                )}
              </Flex>
              {selectedCount > 0 && (
                <Flex
                  align="center"
                  gap={8}
                  wrap
                  data-testid="contacts-selection"
                  style={{
                    padding: '8px 12px',
                    marginBottom: 12,
                    background: token.colorPrimaryBg,
                    border: `1px solid ${token.colorPrimaryBorder}`,
                    borderRadius: token.borderRadius,
                  }}
                >
                  <Typography.Text strong>
                    {allMatching
                      ? t('view.selection.all', { count: total, n: formatNumber(total, i18n.language) })
                      : t('view.selection.some', { count: selected.length, n: formatNumber(selected.length, i18n.language) })}
                  </Typography.Text>
                  {canSelectAll && (
                    <Button type="link" size="small" data-testid="contacts-select-all" onClick={() => setAllMatching(true)}>
                      {t('view.selection.selectAll', { count: total, n: formatNumber(total, i18n.language) })}
                    </Button>
                  )}
                  <Divider orientation="vertical" />
                  <Popconfirm
                    title={t('view.bulk.unsubscribeTitle', {
                      count: selectedCount,
                      n: formatNumber(selectedCount, i18n.language),
                    })}
                    description={t('view.bulk.unsubscribeDescription')}
                    okText={t('view.bulk.unsubscribe')}
                    cancelText={t('actions.cancel')}
                    onConfirm={() => bulk('unsubscribe')}
                  >
                    <Button
                      size="small"
                      icon={<StopOutlined />}
                      data-testid="contacts-bulk-unsubscribe"
                      loading={busy === 'unsubscribe'}
                    >
                      {t('view.bulk.unsubscribe')}
                    </Button>
                  </Popconfirm>
                  <Popconfirm
                    title={t('view.bulk.deleteTitle', { count: selectedCount, n: formatNumber(selectedCount, i18n.language) })}
                    description={t('view.bulk.deleteDescription')}
                    okText={t('actions.delete')}
                    cancelText={t('actions.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => bulk('delete')}
                  >
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      data-testid="contacts-bulk-delete"
                      loading={busy === 'delete'}
                    >
                      {t('view.bulk.delete')}
                    </Button>
                  </Popconfirm>
                  <Button
                    size="small"
                    type="text"
                    onClick={() => {
                      setSelected([]);
                      setAllMatching(false);
                    }}
                  >
                    {t('view.selection.clear')}
                  </Button>
                </Flex>
              )}
              <Table<Contact>
                size="middle"
                rowKey="id"
                data-testid="contacts-table"
                columns={columns}
                dataSource={items}
                loading={contacts.isPending || (contacts.isFetching && contacts.isPlaceholderData)}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: filtered ? t('view.noMatch') : t('view.noContacts') }}
                onRow={(contact) =>
                  ({
                    'data-testid': `contact-row-${contact.email ?? contact.phone ?? contact.id}`,
                  }) as HTMLAttributes<HTMLElement>
                }
                rowSelection={{
                  selectedRowKeys: selectedKeys,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => {
                    setAllMatching(false);
                    setSelected(keys.map(Number));
                  },
                }}
                pagination={{
                  current: paging.page,
                  pageSize: paging.size,
                  total,
                  showSizeChanger: true,
                  showTotal: (count) => t('view.total', { count, n: formatNumber(count, i18n.language) }),
                  onChange: paging.change,
                }}
              />
            </>
          )}
          <ContactDrawer
            key={drawer.key}
            open={drawer.open}
            list={current}
            contact={drawer.contact}
            onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
            onSaved={() => {
              setDrawer((previous) => ({ ...previous, open: false }));
              refresh();
            }}
          />
        </>
      )}
    </Card>
  );
}
