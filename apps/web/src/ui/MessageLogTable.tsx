/** The message-log table the campaign log and the statistics log share: server-paged rows, the recipient and time cells, a dash for no value. */
import type { UseQueryResult } from '@tanstack/react-query';
import { Table, Tooltip, Typography } from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table';
import { formatTime } from '../utils/date';
import type { ServerPaging } from './serverPaging';

export function Dash() {
  return <Typography.Text type="secondary">—</Typography.Text>;
}

export function LogTime({ value }: { value: number }) {
  return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatTime(value)}</span>;
}

export function recipientColumn<Entry extends { recipient: string }>(title: string, width: number): ColumnType<Entry> {
  return {
    key: 'recipient',
    title,
    width,
    ellipsis: { showTitle: false },
    render: (_, entry) => (
      <Tooltip title={entry.recipient} placement="topLeft">
        <span>{entry.recipient}</span>
      </Tooltip>
    ),
  };
}

export interface MessageLogTableProps<Entry> {
  testId: string;
  columns: ColumnsType<Entry>;
  /** A page query that keeps the previous page as placeholder while the next one loads. */
  log: UseQueryResult<{ items: Entry[]; total: number }>;
  paging: ServerPaging;
  scrollWidth: number;
  emptyText: string;
  onOpen?: (entry: Entry) => void;
}

export function MessageLogTable<Entry extends { id: number }>({
  testId,
  columns,
  log,
  paging,
  scrollWidth,
  emptyText,
  onOpen,
}: MessageLogTableProps<Entry>) {
  return (
    <div data-testid={testId}>
      <Table<Entry>
        rowKey="id"
        columns={columns}
        dataSource={log.data?.items ?? []}
        loading={log.isPending || (log.isFetching && log.isPlaceholderData)}
        scroll={{ x: scrollWidth }}
        onRow={onOpen ? (entry) => ({ onClick: () => onOpen(entry), style: { cursor: 'pointer' } }) : undefined}
        locale={{ emptyText }}
        pagination={paging.pagination(log.data?.total ?? 0)}
      />
    </div>
  );
}
