/** The wizard's last step: what an import did, its invalid rows with their line numbers, and the report to download. */
import { DownloadOutlined, EyeOutlined, RedoOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Flex, Result, Row, Statistic, Table, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ContactList, downloadFile, type ImportDetails, reportPath } from './api';
import { formatDuration, formatNumber } from './labels';

type InvalidRow = ImportDetails['invalidSample'][number];

interface ImportReportProps {
  details: ImportDetails;
  list: ContactList | undefined;
  onRestart: () => void;
  onAnotherFile: () => void;
  onView: () => void;
}

function resultStatus(details: ImportDetails): 'success' | 'warning' | 'error' | 'info' {
  if (details.status === 'failed') return 'error';
  if (details.status === 'cancelled') return 'info';
  return details.invalid > 0 ? 'warning' : 'success';
}

export function ImportReport({ details, list, onRestart, onAnotherFile, onView }: ImportReportProps) {
  const { t, i18n } = useTranslation('contacts');
  const { token } = theme.useToken();
  const [downloading, setDownloading] = useState(false);
  const number = (value: number) => formatNumber(value, i18n.language);
  const done = details.status === 'done';
  const seconds = details.startedAt && details.finishedAt ? (details.finishedAt - details.startedAt) / 1000 : null;

  const download = () => {
    setDownloading(true);
    // A failed download is already reported; the catch only ends the promise.
    downloadFile(reportPath(details.id), {}, `${details.fileName.replace(/\.[^.]+$/, '')}-report.csv`)
      .catch(() => undefined)
      .finally(() => setDownloading(false));
  };

  const title = done
    ? details.invalid > 0
      ? t('import.report.doneWithInvalid', { count: details.invalid, n: number(details.invalid) })
      : t('import.report.done')
    : details.status === 'cancelled'
      ? t('import.report.cancelled')
      : t('import.report.failed');

  const subTitle = done
    ? t('import.report.summary', {
        file: details.fileName,
        list: list?.name ?? '',
        rows: number(details.rowsDone),
        count: details.rowsDone,
        time: formatDuration(t, seconds ?? 0),
      })
    : details.status === 'cancelled'
      ? t('import.report.cancelledHelp', { list: list?.name ?? '' })
      : (details.error?.message ?? t('import.report.failedHelp'));

  const counts = [
    { key: 'imported', value: details.imported, shown: true },
    { key: 'updated', value: details.updated, shown: details.mode === 'update' },
    { key: 'removed', value: details.removed, shown: details.mode === 'replace' },
    { key: 'duplicates', value: details.duplicates, shown: true },
    { key: 'invalid', value: details.invalid, shown: true },
  ].filter((count) => count.shown);

  return (
    <Flex vertical gap={8} data-testid="import-report" data-status={details.status}>
      <Result
        status={resultStatus(details)}
        title={title}
        subTitle={subTitle}
        style={{ paddingBlock: 16 }}
        extra={
          <Flex gap={8} wrap justify="center">
            {!done && details.fileKept && (
              <Button type="primary" icon={<RedoOutlined />} data-testid="import-restart" onClick={onRestart}>
                {t('import.report.restart')}
              </Button>
            )}
            <Button type={done ? 'primary' : 'default'} icon={<EyeOutlined />} data-testid="import-report-view" onClick={onView}>
              {t('import.report.view')}
            </Button>
            <Button icon={<UploadOutlined />} data-testid="import-again" onClick={onAnotherFile}>
              {t('import.report.another')}
            </Button>
          </Flex>
        }
      />
      {done && (
        <Row gutter={[16, 16]} justify="center">
          {counts.map((count) => (
            <Col key={count.key} xs={12} sm={8} md={4}>
              <Card size="small" variant="outlined" style={{ textAlign: 'center' }}>
                <Statistic
                  data-testid={`import-report-${count.key}`}
                  title={t(`import.report.counts.${count.key}`)}
                  value={number(count.value)}
                  styles={count.key === 'invalid' && count.value > 0 ? { content: { color: token.colorWarningText } } : undefined}
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}
      {details.invalid > 0 && (
        <Flex vertical gap={12} style={{ marginTop: 24 }}>
          <Flex justify="space-between" align="center" gap={12} wrap>
            <div>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {t('import.report.invalidTitle')}
              </Typography.Title>
              <Typography.Text type="secondary">
                {details.invalid > details.invalidSample.length
                  ? t('import.report.invalidSome', { shown: number(details.invalidSample.length), n: number(details.invalid) })
                  : t('import.report.invalidAll')}
              </Typography.Text>
            </div>
            {details.reportAvailable && (
              <Button icon={<DownloadOutlined />} data-testid="import-report-download" loading={downloading} onClick={download}>
                {t('import.report.download')}
              </Button>
            )}
          </Flex>
          <Table<InvalidRow>
            size="small"
            rowKey={(row) => `${row.line}-${row.key}`}
            data-testid="import-invalid-rows"
            dataSource={details.invalidSample}
            pagination={false}
            columns={[
              {
                key: 'line',
                title: t('import.report.line'),
                width: 100,
                render: (_, row) => <span data-testid="import-invalid-line">{row.line}</span>,
              },
              { key: 'reason', title: t('import.report.reason'), render: (_, row) => row.message },
            ]}
          />
        </Flex>
      )}
    </Flex>
  );
}
