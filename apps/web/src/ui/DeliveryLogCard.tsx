/** The log of outgoing notices (status webhook, Slack): a card with a refresh button over a server-paged table of deliveries. */
import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { ServerPaging } from './serverPaging';

/** The receiver's answer to the last attempt: its error, else its HTTP status. */
export function DeliveryAnswer({ error, responseStatus }: { error: string | null; responseStatus: number | null }) {
  if (error) return <Typography.Text type="danger">{error}</Typography.Text>;
  return responseStatus !== null ? <Typography.Text>HTTP {responseStatus}</Typography.Text> : null;
}

export interface DeliveryLogCardProps<Delivery> {
  title: string;
  testId: string;
  refreshLabel: string;
  /** Shown before the refresh button. */
  filter?: ReactNode;
  columns: ColumnsType<Delivery>;
  log: UseQueryResult<{ items: Delivery[]; total: number }>;
  paging: ServerPaging;
  emptyText: string;
  rowTestId: (delivery: Delivery) => string;
  tableSize?: 'middle';
}

export function DeliveryLogCard<Delivery extends { id: number }>({
  title,
  testId,
  refreshLabel,
  filter,
  columns,
  log,
  paging,
  emptyText,
  rowTestId,
  tableSize,
}: DeliveryLogCardProps<Delivery>) {
  const refresh = (
    <Tooltip title={refreshLabel}>
      <Button icon={<ReloadOutlined />} aria-label={refreshLabel} onClick={() => void log.refetch()} />
    </Tooltip>
  );
  return (
    <Card
      variant="borderless"
      data-testid={testId}
      title={title}
      extra={
        filter ? (
          <Space>
            {filter}
            {refresh}
          </Space>
        ) : (
          refresh
        )
      }
    >
      <Table<Delivery>
        rowKey="id"
        size={tableSize}
        columns={columns}
        dataSource={log.data?.items ?? []}
        loading={log.isPending}
        scroll={{ x: 900 }}
        locale={{ emptyText }}
        onRow={(delivery) => ({ 'data-testid': rowTestId(delivery) }) as object}
        pagination={{
          current: paging.page,
          pageSize: paging.size,
          total: log.data?.total ?? 0,
          showSizeChanger: true,
          onChange: paging.change,
        }}
      />
    </Card>
  );
}
