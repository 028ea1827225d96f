/** Template list: categories with the current one remembered by the server, search, channel filter and row actions. */

import {
  BuildOutlined,
  CodeOutlined,
  CopyOutlined,
  EditOutlined,
  EyeOutlined,
  FileTextOutlined,
  MailOutlined,
  MessageOutlined,
  PlusOutlined,
  SendOutlined,
} from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Drawer, Empty, Flex, Row, Segmented, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, type ReactNode, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DeleteAction } from '../../ui/DeleteAction';
import { EmptyState } from '../../ui/EmptyState';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { SearchBox } from '../../ui/SearchBox';
import { useServerPaging } from '../../ui/serverPaging';
import { textList } from '../../ui/textList';
import { formatTime, timeAgo } from '../../utils/date';
import { useNow } from '../configs/useNow';
import {
  CATEGORIES_KEY,
  categoriesApi,
  categoriesQuery,
  currentCategoryQuery,
  type RenderData,
  TEMPLATES_KEY,
  type TemplateSummary,
  templatesApi,
  templatesQuery,
} from './api';
import { CategoryPanel } from './CategoryPanel';
import { PreviewPane } from './PreviewPane';
import { TestSendDrawer } from './TestSendDrawer';

type ChannelFilter = 'ALL' | ChannelCategory;

function ChannelTag({ channel }: { channel: ChannelCategory }) {
  const { t } = useTranslation('templates');
  return (
    <Tag
      color={channel === 'EMAIL' ? 'blue' : 'purple'}
      icon={channel === 'EMAIL' ? <MailOutlined /> : <MessageOutlined />}
      style={{ marginInlineEnd: 0 }}
    >
      {t(`channels.${channel}`)}
    </Tag>
  );
}

function PreviewDrawer({ template, onClose }: { template: TemplateSummary | undefined; onClose: () => void }) {
  const { t } = useTranslation('templates');
  const navigate = useNavigate();
  const [data, setData] = useState<RenderData>({});
  const [testOpen, setTestOpen] = useState(false);
  return (
    <Drawer
      open={template !== undefined}
      onClose={onClose}
      destroyOnHidden
      size={860}
      title={
        template && (
          <Flex gap={8} align="center">
            <EyeOutlined />
            {template.name}
            <ChannelTag channel={template.channel} />
          </Flex>
        )
      }
      extra={
        template && (
          <Space>
            <Button icon={<EditOutlined />} onClick={() => navigate(`/templates/edit/${encodeURIComponent(template.name)}`)}>
              {t('actions.edit')}
            </Button>
            <Button type="primary" icon={<SendOutlined />} data-testid="test-send-open" onClick={() => setTestOpen(true)}>
              {t('testSend.open')}
            </Button>
          </Space>
        )
      }
    >
      {template && (
        <>
          <PreviewPane
            source={{ name: template.name }}
            channel={template.channel}
            data={data}
            onDataChange={setData}
            height={620}
          />
          <TestSendDrawer
            open={testOpen}
            name={template.name}
            channel={template.channel}
            data={data}
            onClose={() => setTestOpen(false)}
          />
        </>
      )}
    </Drawer>
  );
}

export default function TemplateList() {
  const { t } = useTranslation('templates');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const now = useNow();
  const categories = useQuery(categoriesQuery);
  const current = useQuery(currentCategoryQuery);
  const [channel, setChannel] = useState<ChannelFilter>('ALL');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search.trim());
  const paging = useServerPaging();
  const [previewed, setPreviewed] = useState<TemplateSummary>();
  // Until the server says which category is current, nothing is listed, so the first page is fetched once.
  const categoryId = current.data?.categoryId ?? null;
  const filter = {
    ...(categoryId === null ? {} : { categoryId }),
    ...(channel === 'ALL' ? {} : { channel }),
    ...(deferredSearch ? { search: deferredSearch } : {}),
    page: paging.page,
    size: paging.size,
  };
  const templates = useQuery({ ...templatesQuery(filter), enabled: !current.isPending });
  const total = templates.data?.total ?? 0;
  const filtered = categoryId !== null || channel !== 'ALL' || deferredSearch !== '';
  const categoryName = categories.data?.find((category) => category.id === categoryId)?.name;

  const selectCategory = (id: number | null) => {
    queryClient.setQueryData(currentCategoryQuery.queryKey, { categoryId: id });
    paging.toFirstPage();
    // Remembered on the server, so the choice follows the account to another browser; if that fails it still holds here.
    categoriesApi.setCurrent(id).catch(() => undefined);
  };

  const remove = (template: TemplateSummary) =>
    templatesApi
      .remove(template.name)
      .then(() => {
        message.success(t('list.deleted', { name: template.name }));
        paging.showPreviousIfEmptied(templates.data?.items.length ?? 0);
        void queryClient.invalidateQueries({ queryKey: [...TEMPLATES_KEY, 'list'] });
        void queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
      })
      // Already reported by the HTTP client.
      .catch(() => undefined);

  const action = (testId: string, title: string, icon: ReactNode, onClick: () => void) => (
    <Tooltip title={title}>
      <Button type="text" icon={icon} data-testid={testId} aria-label={title} onClick={onClick} />
    </Tooltip>
  );

  const columns: ColumnsType<TemplateSummary> = [
    {
      key: 'name',
      title: t('list.columns.name'),
      width: 230,
      render: (_, template) => (
        <Flex align="center" gap={8} wrap={false}>
          <Typography.Link
            strong
            ellipsis
            onClick={() => navigate(`/templates/edit/${encodeURIComponent(template.name)}`)}
            style={{ maxWidth: template.hasBuilder ? 130 : 220 }}
          >
            {template.name}
          </Typography.Link>
          {template.hasBuilder && (
            <Tooltip title={t('list.builderBadgeHelp')}>
              <Tag icon={<BuildOutlined />} color="geekblue" bordered={false} data-testid="template-builder-badge">
                {t('list.builderBadge')}
              </Tag>
            </Tooltip>
          )}
        </Flex>
      ),
    },
    {
      key: 'channel',
      title: t('list.columns.channel'),
      width: 100,
      render: (_, template) => <ChannelTag channel={template.channel} />,
    },
    {
      key: 'subject',
      title: t('list.columns.subject'),
      ellipsis: true,
      render: (_, template) =>
        template.channel === 'SMS' || !template.subject ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Tooltip title={template.subject} placement="topLeft">
            <span>{template.subject}</span>
          </Tooltip>
        ),
    },
    {
      key: 'category',
      title: t('list.columns.category'),
      width: 140,
      ellipsis: true,
      render: (_, template) => template.categoryName ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'updated',
      title: t('list.columns.updated'),
      width: 120,
      render: (_, template) => (
        <Tooltip title={formatTime(template.updatedAt)}>
          <span style={{ whiteSpace: 'nowrap' }}>{timeAgo(template.updatedAt, now)}</span>
        </Tooltip>
      ),
    },
    {
      key: 'actions',
      title: t('list.columns.actions'),
      align: 'right',
      width: 190,
      fixed: 'right',
      render: (_, template) => {
        const encoded = encodeURIComponent(template.name);
        return (
          <Space size={0}>
            {action('template-preview', t('actions.preview'), <EyeOutlined />, () => setPreviewed(template))}
            {action('template-edit', t('actions.edit'), <EditOutlined />, () => navigate(`/templates/edit/${encoded}`))}
            {template.hasBuilder &&
              action('template-builder', t('actions.editInBuilder'), <BuildOutlined />, () =>
                navigate(`/templates/builder?name=${encoded}`),
              )}
            {action('template-copy', t('actions.copy'), <CopyOutlined />, () => navigate(`/templates/copy/${encoded}`))}
            <DeleteAction
              title={t('list.deleteTitle', { name: template.name })}
              description={t('list.deleteDescription')}
              onConfirm={() => remove(template)}
              testId="template-delete"
            />
          </Space>
        );
      },
    },
  ];

  const addButton = (testId = 'templates-add') => (
    <Button type="primary" icon={<PlusOutlined />} data-testid={testId} onClick={() => navigate('/templates/create')}>
      {t('actions.create')}
    </Button>
  );
  const otherActions = (
    <>
      <Button icon={<BuildOutlined />} data-testid="templates-builder" onClick={() => navigate('/templates/builder')}>
        {t('actions.builder')}
      </Button>
      <Button icon={<CodeOutlined />} onClick={() => navigate('/templates/variables')}>
        {t('actions.variables')}
      </Button>
    </>
  );

  const firstRun = templates.isSuccess && total === 0 && !filtered && (categories.data?.length ?? 0) === 0;
  if (firstRun) {
    return (
      <EmptyState
        testId="templates-empty"
        icon={<FileTextOutlined />}
        title={t('list.empty.title')}
        description={t('list.empty.description')}
        capabilities={textList(t, 'list.empty.capabilities')}
        actions={
          <Space wrap>
            {addButton()}
            {otherActions}
          </Space>
        }
      />
    );
  }

  return (
    <Card variant="borderless" data-testid="templates">
      <ScreenHeader title={t('list.title')} subtitle={t('list.subtitle')}>
        <Space wrap>
          {otherActions}
          {addButton()}
        </Space>
      </ScreenHeader>
      <Row gutter={[24, 16]} wrap>
        <Col flex="232px" style={{ maxWidth: '100%' }}>
          <div style={{ paddingInlineEnd: 8, borderInlineEnd: `1px solid ${token.colorBorderSecondary}`, height: '100%' }}>
            <CategoryPanel categories={categories.data} selected={categoryId} onSelect={selectCategory} />
          </div>
        </Col>
        <Col flex="1 1 560px" style={{ minWidth: 0 }}>
          <Flex gap={12} wrap justify="space-between" style={{ marginBottom: 16 }}>
            <Segmented<ChannelFilter>
              data-testid="templates-channel"
              value={channel}
              onChange={(value) => {
                setChannel(value);
                paging.toFirstPage();
              }}
              options={(['ALL', 'EMAIL', 'SMS'] as const).map((value) => ({ value, label: t(`channels.${value}`) }))}
            />
            <SearchBox
              testId="templates-search"
              placeholder={t('list.search')}
              value={search}
              onSearch={(text) => {
                setSearch(text);
                paging.toFirstPage();
              }}
            />
          </Flex>
          <Table<TemplateSummary>
            rowKey="id"
            columns={columns}
            dataSource={templates.data?.items ?? []}
            loading={templates.isPending || templates.isPlaceholderData}
            scroll={{ x: 940 }}
            onRow={(template) => ({ 'data-testid': `template-row-${template.name}` }) as HTMLAttributes<HTMLElement>}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={
                    deferredSearch || channel !== 'ALL'
                      ? t('list.noMatch')
                      : categoryName
                        ? t('list.emptyCategory', { name: categoryName })
                        : t('list.noTemplates')
                  }
                >
                  {!deferredSearch && channel === 'ALL' && addButton('templates-add-empty')}
                </Empty>
              ),
            }}
            pagination={{ ...paging.pagination(total), showTotal: (count) => t('list.total', { count }) }}
          />
        </Col>
      </Row>
      <PreviewDrawer template={previewed} onClose={() => setPreviewed(undefined)} />
    </Card>
  );
}
