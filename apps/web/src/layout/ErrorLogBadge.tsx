/** Top bar error-log badge: hidden while the log is empty, opens the list of captured errors. */
import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Collapse, Empty, Flex, Modal, Tag, Tooltip, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../utils/date';
import { clearErrors, useErrorLog } from './errorLog';

export function ErrorLogBadge() {
  const { t } = useTranslation('layout');
  const entries = useErrorLog();
  const [open, setOpen] = useState(false);
  const { token } = theme.useToken();

  if (entries.length === 0 && !open) return null;

  return (
    <>
      <Tooltip title={t('errorLog.open')}>
        <Badge count={entries.length} size="small" offset={[-4, 4]}>
          <Button
            type="text"
            danger
            data-testid="error-log-badge"
            aria-label={t('errorLog.open')}
            icon={<BugOutlined />}
            onClick={() => setOpen(true)}
          />
        </Badge>
      </Tooltip>
      <Modal
        open={open}
        title={t('errorLog.title')}
        width={800}
        onCancel={() => setOpen(false)}
        footer={
          <Flex justify="space-between">
            <Button danger data-testid="error-log-clear" disabled={entries.length === 0} onClick={clearErrors}>
              {t('errorLog.clear')}
            </Button>
            <Button type="primary" onClick={() => setOpen(false)}>
              {t('errorLog.close')}
            </Button>
          </Flex>
        }
      >
        {entries.length === 0 ? (
          <Empty description={t('errorLog.empty')} />
        ) : (
          <Flex vertical data-testid="error-log-list" style={{ maxHeight: '60vh', overflow: 'auto' }}>
            {entries.map((entry) => (
              <div key={entry.id} style={{ padding: '12px 0', borderBottom: `1px solid ${token.colorSplit}` }}>
                <Flex gap={8} align="center" wrap>
                  <Tag color="red">{t(`errorLog.source.${entry.source}`)}</Tag>
                  <Typography.Text type="secondary">{formatTime(entry.time)}</Typography.Text>
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 360 }}>
                    {entry.url}
                  </Typography.Text>
                </Flex>
                <Typography.Paragraph strong style={{ margin: '8px 0 0' }}>
                  {entry.message}
                </Typography.Paragraph>
                {entry.stack && (
                  <Collapse
                    size="small"
                    ghost
                    items={[
                      {
                        key: 'stack',
                        label: t('errorLog.stack'),
                        children: (
                          <pre style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                            {entry.stack}
                          </pre>
                        ),
                      },
                    ]}
                  />
                )}
              </div>
            ))}
          </Flex>
        )}
      </Modal>
    </>
  );
}
