/** What the account's sandbox providers kept instead of sending: email bodies in an inert frame, SMS as text. */
import { InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Empty, Flex, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useServerPaging } from '../../ui/serverPaging';
import { formatTime, timeAgo } from '../../utils/date';
import { type ProviderConfig, type SandboxMessage, sandboxQuery } from './api';
import { CategoryTag } from './labels';
import { useNow } from './useNow';

const STATUS_COLORS: Record<string, string> = { accepted: 'processing', delivered: 'success', undelivered: 'error' };

function MessageBody({ message }: { message: SandboxMessage }) {
  const { t } = useTranslation('configs');
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={12} style={{ padding: '4px 0' }}>
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'id',
            label: t('providers.inbox.providerMessageId'),
            children: (
              <Typography.Text copyable code>
                {message.providerMessageId}
              </Typography.Text>
            ),
          },
          { key: 'at', label: t('providers.inbox.receivedAt'), children: formatTime(message.createdAt) },
        ]}
      />
      {message.category === 'EMAIL' ? (
        // An empty sandbox list keeps scripts, forms and same-origin access out of whatever HTML the campaign sent.
        <iframe
          title={message.subject ?? message.providerMessageId}
          sandbox=""
          srcDoc={message.body}
          data-testid="sandbox-email-body"
          style={{
            width: '100%',
            height: 360,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            background: '#fff',
          }}
        />
      ) : (
        <Typography.Paragraph
          data-testid="sandbox-sms-body"
          style={{
            whiteSpace: 'pre-wrap',
            margin: 0,
            padding: 12,
            background: token.colorFillQuaternary,
            borderRadius: token.borderRadius,
          }}
        >
          {message.body}
        </Typography.Paragraph>
      )}
    </Flex>
  );
}

interface SandboxInboxProps {
  open: boolean;
  category: ChannelCategory;
  configs: ProviderConfig[];
  onClose: () => void;
}

export function SandboxInbox({ open, category, configs, onClose }: SandboxInboxProps) {
  const { t } = useTranslation('configs');
  const now = useNow();
  const paging = useServerPaging();
  const query = useQuery({ ...sandboxQuery(category, paging.page, paging.size), enabled: open });
  const names = new Map(configs.map((config) => [config.id, config.name]));

  const columns: ColumnsType<SandboxMessage> = [
    {
      key: 'createdAt',
      title: t('providers.inbox.receivedAt'),
      width: 150,
      render: (_, message) => (
        <Tooltip title={formatTime(message.createdAt)}>
          <span>{timeAgo(message.createdAt, now)}</span>
        </Tooltip>
      ),
    },
    { key: 'recipient', title: t('providers.inbox.recipient'), dataIndex: 'recipient', ellipsis: true },
    category === 'EMAIL'
      ? {
          key: 'subject',
          title: t('providers.inbox.subject'),
          ellipsis: true,
          render: (_, message) =>
            message.subject ?? <Typography.Text type="secondary">{t('providers.inbox.noSubject')}</Typography.Text>,
        }
      : { key: 'body', title: t('providers.inbox.text'), dataIndex: 'body', ellipsis: true },
    {
      key: 'config',
      title: t('providers.inbox.config'),
      ellipsis: true,
      render: (_, message) => names.get(message.providerConfigId) ?? `#${message.providerConfigId}`,
    },
    {
      key: 'status',
      title: t('providers.inbox.status'),
      width: 130,
      render: (_, message) => (
        <Tag color={STATUS_COLORS[message.status] ?? 'default'}>
          {t(`providers.inbox.statuses.${message.status}`, { defaultValue: message.status })}
        </Tag>
      ),
    },
  ];

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={900}
      destroyOnHidden
      title={
        <Flex gap={8} align="center">
          <InboxOutlined />
          {t('providers.inbox.title')}
          <CategoryTag category={category} />
        </Flex>
      }
      extra={
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('actions.refresh')}
        </Button>
      }
    >
      <Flex vertical gap={12} data-testid="sandbox-inbox">
        <Typography.Text type="secondary">{t('providers.inbox.description')}</Typography.Text>
        <Table<SandboxMessage>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={query.data?.items ?? []}
          loading={query.isPending && open}
          expandable={{ expandedRowRender: (message) => <MessageBody message={message} />, expandRowByClick: true }}
          locale={{
            emptyText: (
              <Empty
                data-testid="sandbox-inbox-empty"
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={t(`providers.inbox.empty.${category}`)}
              />
            ),
          }}
          pagination={paging.pagination(query.data?.total ?? 0)}
        />
      </Flex>
    </Drawer>
  );
}
