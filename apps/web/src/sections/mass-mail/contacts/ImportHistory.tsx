/** A list's earlier imports, newest first, each reopened where it stands (waiting, running or finished). */
import { SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../utils/date';
import { type ContactImport, type ImportStatus, importsQuery } from './api';
import { formatBytes, formatNumber } from './labels';

const HISTORY_PAGE_SIZE = 5;

const STATUS_COLORS: Record<ImportStatus, string> = {
  pending: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

function ImportStatusTag({ status }: { status: ImportStatus }) {
  const { t } = useTranslation('contacts');
  return (
    <Tag color={STATUS_COLORS[status]} icon={status === 'running' ? <SyncOutlined spin /> : undefined} data-status={status}>
      {t(`import.status.${status}`)}
    </Tag>
  );
}

export function ImportHistory({ listId, onOpen }: { listId: number; onOpen: (importId: number) => void }) {
  const { t, i18n } = useTranslation('contacts');
  const [page, setPage] = useState(1);
  const imports = useQuery(importsQuery(listId, page, HISTORY_PAGE_SIZE));
  const total = imports.data?.total ?? 0;
  if (total === 0) return null;
  const number = (value: number) => formatNumber(value, i18n.language);

  const columns: ColumnsType<ContactImport> = [
    {
      key: 'file',
      title: t('import.history.file'),
      render: (_, item) => (
        <>
          <Typography.Text>{item.fileName}</Typography.Text>{' '}
          <Typography.Text type="secondary">{formatBytes(t, item.sizeBytes, i18n.language)}</Typography.Text>
        </>
      ),
    },
    {
      key: 'time',
      title: t('import.history.time'),
      width: 180,
      render: (_, item) => formatTime(item.startedAt ?? item.createdAt),
    },
    {
      key: 'status',
      title: t('import.history.status'),
      width: 140,
      render: (_, item) => <ImportStatusTag status={item.status} />,
    },
    {
      key: 'result',
      title: t('import.history.result'),
      render: (_, item) =>
        item.status === 'done' ? (
          <Typography.Text type="secondary">
            {t('import.history.counts', {
              imported: number(item.imported),
              updated: number(item.updated),
              invalid: number(item.invalid),
            })}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{item.error?.message ?? ''}</Typography.Text>
        ),
    },
    {
      key: 'open',
      align: 'right',
      width: 100,
      render: (_, item) => (
        <Button size="small" type="link" data-testid="import-history-open" onClick={() => onOpen(item.id)}>
          {t('import.history.open')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <Typography.Title level={5}>{t('import.history.title')}</Typography.Title>
      <Table<ContactImport>
        size="small"
        rowKey="id"
        data-testid="import-history"
        columns={columns}
        dataSource={imports.data?.items ?? []}
        onRow={(item) => ({ 'data-testid': `import-history-row-${item.id}` }) as HTMLAttributes<HTMLElement>}
        pagination={{ current: page, pageSize: HISTORY_PAGE_SIZE, total, hideOnSinglePage: true, onChange: setPage }}
      />
    </>
  );
}
