/** Admin: the feedback users sent from the floating dialog, with their screenshots. */
import { PaperClipOutlined } from '@ant-design/icons';
import { Card, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../session/token';
import { formatTime } from '../../utils/date';
import { usePagedQuery } from './usePagedQuery';

interface FeedbackFile {
  id: number;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
}

interface FeedbackEntry {
  id: number;
  name: string;
  email: string;
  desc: string;
  createdAt: number;
  files: FeedbackFile[];
}

/** Files are behind the session header, so they are fetched and opened as a blob. */
async function openFile(file: FeedbackFile): Promise<void> {
  const response = await fetch(`/api/data/feedback/files/${file.id}`, { headers: { 'X-Token': getToken() ?? '' } });
  if (!response.ok) return;
  window.open(URL.createObjectURL(await response.blob()), '_blank', 'noopener');
}

export default function FeedbackInbox() {
  const { t } = useTranslation('admin');
  const { query, pagination } = usePagedQuery<FeedbackEntry>('/data/feedback');
  return (
    <Card title={t('feedback.title')} data-testid="admin-feedback">
      <Table<FeedbackEntry>
        rowKey="id"
        loading={query.isPending}
        dataSource={query.data?.items ?? []}
        pagination={pagination}
        locale={{ emptyText: t('feedback.empty') }}
        columns={[
          { title: t('feedback.time'), dataIndex: 'createdAt', width: 180, render: (value: number) => formatTime(value) },
          {
            title: t('feedback.from'),
            render: (_, entry) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{entry.name}</Typography.Text>
                <Typography.Text type="secondary">{entry.email}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('feedback.desc'),
            dataIndex: 'desc',
            render: (value: string) => <Typography.Paragraph>{value}</Typography.Paragraph>,
          },
          {
            title: t('feedback.files'),
            width: 220,
            render: (_, entry) => (
              <Space direction="vertical" size={0}>
                {entry.files.map((file) => (
                  <Typography.Link key={file.id} onClick={() => void openFile(file)}>
                    <PaperClipOutlined /> {file.fileName}
                  </Typography.Link>
                ))}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
