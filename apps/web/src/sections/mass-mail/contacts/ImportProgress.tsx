/** The wizard's third step: a running import's progress, polled from the server so a reload finds it again. */
import { StopOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Col, Flex, Popconfirm, Progress, Row, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ContactList, type ImportDetails, importQuery, importsApi } from './api';
import { formatDuration, formatNumber } from './labels';

/** Reading stops short of full: the rows still have to be saved into the list. */
const READING_MAX_PERCENT = 99;

export function ImportProgress({ details, list }: { details: ImportDetails; list: ContactList | undefined }) {
  const { t, i18n } = useTranslation('contacts');
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const saving = details.phase === 'saving';
  const number = (value: number) => formatNumber(value, i18n.language);
  const percent = saving
    ? 100
    : details.rowsTotal > 0
      ? Math.min(READING_MAX_PERCENT, Math.floor((details.rowsDone / details.rowsTotal) * 100))
      : 0;

  // A failed cancel is already reported by the HTTP client; the catch only ends the promise.
  const cancel = () => {
    setCancelling(true);
    importsApi
      .cancel(details.id)
      .then((answer) => queryClient.setQueryData(importQuery(details.id).queryKey, answer))
      .catch(() => undefined)
      .finally(() => setCancelling(false));
  };

  const stopping = details.cancelRequested || cancelling;

  return (
    <Flex vertical gap={24} data-testid="import-running" style={{ maxWidth: 860, margin: '0 auto', width: '100%' }}>
      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('import.progress.title', { file: details.fileName, list: list?.name ?? '' })}
        </Typography.Title>
        <Typography.Text type="secondary">
          {saving ? t('import.progress.saving') : stopping ? t('import.progress.stopping') : t('import.progress.reading')}
        </Typography.Text>
      </div>
      <Progress
        data-testid="import-progress"
        data-percent={percent}
        percent={percent}
        status={stopping ? 'exception' : 'active'}
        format={(value) => `${value ?? 0}%`}
      />
      <Row gutter={[24, 16]}>
        <Col xs={12} md={6}>
          <Statistic data-testid="import-rows-done" title={t('import.progress.rows')} value={number(details.rowsDone)} />
          {details.rowsTotal > details.rowsDone && (
            <Typography.Text type="secondary">{t('import.progress.ofAbout', { n: number(details.rowsTotal) })}</Typography.Text>
          )}
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            data-testid="import-rate"
            title={t('import.progress.rate')}
            value={details.rowsPerSecond ? t('import.progress.perSecond', { n: number(details.rowsPerSecond) }) : '—'}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            data-testid="import-time-left"
            title={t('import.progress.timeLeft')}
            value={details.secondsLeft !== null ? formatDuration(t, details.secondsLeft) : '—'}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic data-testid="import-invalid-so-far" title={t('import.progress.invalid')} value={number(details.invalid)} />
        </Col>
      </Row>
      <Alert type="info" showIcon title={t('import.progress.leave')} />
      <Flex justify="end">
        <Popconfirm
          title={t('import.progress.cancelTitle')}
          description={t('import.progress.cancelDescription')}
          okText={t('import.progress.cancelOk')}
          cancelText={t('import.progress.keepGoing')}
          okButtonProps={{ danger: true }}
          disabled={stopping || saving}
          onConfirm={cancel}
        >
          <Button danger icon={<StopOutlined />} data-testid="import-cancel" loading={stopping} disabled={saving}>
            {stopping ? t('import.progress.cancelling') : t('import.progress.cancel')}
          </Button>
        </Popconfirm>
      </Flex>
    </Flex>
  );
}
