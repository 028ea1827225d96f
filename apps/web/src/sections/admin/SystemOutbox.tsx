/** Admin: mail Herald sent on its own behalf (password resets), kept here in embedded mode. */
import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../utils/date';
import { usePagedQuery } from './usePagedQuery';

interface OutboxMail {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  createdAt: number;
}

export default function SystemOutbox() {
  const { t } = useTranslation('admin');
  const { query, pagination } = usePagedQuery<OutboxMail>('/data/system-outbox');
  return (
    <Card title={t('outbox.title')} data-testid="admin-outbox">
      <Typography.Paragraph type="secondary">{t('outbox.intro')}</Typography.Paragraph>
      <Table<OutboxMail>
        rowKey="id"
        loading={query.isPending}
        dataSource={query.data?.items ?? []}
        pagination={pagination}
        locale={{ emptyText: t('outbox.empty') }}
        expandable={{ expandedRowRender: (mail) => <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{mail.text}</pre> }}
        columns={[
          { title: t('outbox.time'), dataIndex: 'createdAt', width: 180, render: (value: number) => formatTime(value) },
          { title: t('outbox.recipient'), dataIndex: 'recipient' },
          { title: t('outbox.subject'), dataIndex: 'subject' },
        ]}
      />
    </Card>
  );
}
