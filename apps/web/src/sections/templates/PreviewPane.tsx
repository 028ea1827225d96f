/**
 * A template rendered by the server for the sample contact or a chosen contact: e-mail at desktop or mobile width
 * (or its plain-text part), SMS as a bubble with the parts the send will use.
 */
import { DesktopOutlined, FileTextOutlined, LoadingOutlined, MobileOutlined } from '@ant-design/icons';
import type { ChannelCategory } from '@herald/shared';
import { Alert, Empty, Flex, InputNumber, Segmented, Spin, Tag, Typography, theme } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';
import { megabytes, type Preview, type RenderData, TEMPLATE_MAX_BYTES, type TemplateParts, templatesApi, utf8Bytes } from './api';
import { type Device, PreviewFrame } from './PreviewFrame';

type View = Device | 'text';
type Source = { name: string } | TemplateParts;

const DEBOUNCE_MS = 400;

function failureText(error: unknown): string {
  if (error instanceof ApiError) return error.fields?.[0]?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function sizeOf(source: Source): number {
  return 'name' in source
    ? 0
    : utf8Bytes(source.subject) + utf8Bytes(source.html) + utf8Bytes(source.text) + utf8Bytes(source.smsText);
}

interface PreviewPaneProps {
  source: Source;
  channel: ChannelCategory;
  data: RenderData;
  onDataChange: (data: RenderData) => void;
  /** Shown at the right of the pane's header. */
  extra?: ReactNode;
  height?: number;
}

export function PreviewPane({ source, channel, data, onDataChange, extra, height = 560 }: PreviewPaneProps) {
  const { t } = useTranslation('templates');
  const { token } = theme.useToken();
  const [view, setView] = useState<View>('desktop');
  const [result, setResult] = useState<{ preview?: Preview; error?: string }>({});
  const [loading, setLoading] = useState(false);
  const sequence = useRef(0);
  const byName = 'name' in source;
  const parts = byName ? undefined : source;

  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the strings `source` holds, since callers build a new object per render
  useEffect(() => {
    const current = ++sequence.current;
    const timer = window.setTimeout(() => {
      if (sizeOf(source) >= TEMPLATE_MAX_BYTES) {
        setResult((previous) => ({
          preview: previous.preview,
          error: t('errors:templates.tooLarge', { limit: megabytes(TEMPLATE_MAX_BYTES) }),
        }));
        return;
      }
      setLoading(true);
      templatesApi
        .preview(source, data)
        .then(
          (preview) => current === sequence.current && setResult({ preview }),
          // The last good rendering stays, dimmed, while the template has an error.
          (error: unknown) =>
            current === sequence.current && setResult((previous) => ({ preview: previous.preview, error: failureText(error) })),
        )
        .finally(() => current === sequence.current && setLoading(false));
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [
    byName ? source.name : undefined,
    parts?.channel,
    parts?.subject,
    parts?.html,
    parts?.text,
    parts?.smsText,
    data.contactId,
    t,
  ]);

  const preview = result.preview;
  const subject = preview?.subject ?? '';

  return (
    <Flex vertical gap={12} data-testid="template-preview-pane">
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Flex align="center" gap={8}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('preview.title')}
          </Typography.Title>
          {loading && <Spin indicator={<LoadingOutlined spin />} size="small" />}
        </Flex>
        <Flex gap={8} align="center" wrap>
          {channel === 'EMAIL' && (
            <Segmented<View>
              size="small"
              value={view}
              onChange={setView}
              options={[
                {
                  value: 'desktop',
                  label: <span data-testid="preview-desktop">{t('preview.desktop')}</span>,
                  icon: <DesktopOutlined />,
                },
                {
                  value: 'mobile',
                  label: <span data-testid="preview-mobile">{t('preview.mobile')}</span>,
                  icon: <MobileOutlined />,
                },
                { value: 'text', label: <span data-testid="preview-text">{t('preview.text')}</span>, icon: <FileTextOutlined /> },
              ]}
            />
          )}
          {extra}
        </Flex>
      </Flex>

      <Flex align="center" gap={8} wrap style={{ fontSize: 13 }}>
        <Typography.Text type="secondary">{t('preview.renderFor')}</Typography.Text>
        <Segmented<'sample' | 'contact'>
          size="small"
          data-testid="preview-data"
          value={data.contactId === undefined ? 'sample' : 'contact'}
          onChange={(value) => onDataChange(value === 'sample' ? {} : { contactId: data.contactId ?? 1 })}
          options={[
            { value: 'sample', label: t('preview.sample') },
            { value: 'contact', label: t('preview.contact') },
          ]}
        />
        {data.contactId !== undefined && (
          <InputNumber
            size="small"
            min={1}
            precision={0}
            prefix="#"
            data-testid="preview-contact"
            aria-label={t('preview.contactId')}
            value={data.contactId}
            onChange={(value) => onDataChange({ contactId: value ?? 1 })}
            style={{ width: 110 }}
          />
        )}
        {data.contactId === undefined && <Typography.Text type="secondary">{t('preview.sampleHint')}</Typography.Text>}
      </Flex>

      {result.error && (
        <Alert type="warning" showIcon data-testid="preview-error" title={t('preview.failed')} description={result.error} />
      )}

      {!preview && !result.error && (
        <Flex justify="center" align="center" style={{ minHeight: 240 }}>
          <Spin />
        </Flex>
      )}

      {preview && channel === 'EMAIL' && (
        <>
          <Flex
            vertical
            gap={2}
            style={{
              padding: '8px 12px',
              borderRadius: token.borderRadius,
              background: token.colorFillQuaternary,
              opacity: result.error ? 0.5 : 1,
            }}
          >
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('preview.subject')}
            </Typography.Text>
            <Typography.Text strong data-testid="preview-subject" ellipsis={{ tooltip: subject }}>
              {subject || <Typography.Text type="secondary">{t('preview.noSubject')}</Typography.Text>}
            </Typography.Text>
          </Flex>
          {view === 'text' ? (
            <pre
              data-testid="preview-plain"
              style={{
                margin: 0,
                padding: 16,
                height,
                overflow: 'auto',
                whiteSpace: 'pre-wrap',
                font: '13px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                background: token.colorBgContainer,
                border: `1px solid ${token.colorBorderSecondary}`,
                borderRadius: token.borderRadius,
              }}
            >
              {preview.text}
            </pre>
          ) : (
            <div style={{ opacity: result.error ? 0.5 : 1 }}>
              <PreviewFrame html={preview.html} device={view} title={subject || t('preview.title')} height={height} />
            </div>
          )}
        </>
      )}

      {preview && channel === 'SMS' && (
        <Flex vertical gap={12} style={{ opacity: result.error ? 0.5 : 1 }}>
          <div
            style={{
              alignSelf: 'center',
              width: '100%',
              maxWidth: 360,
              padding: 16,
              borderRadius: 28,
              background: token.colorFillQuaternary,
              border: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            {preview.smsText ? (
              <div
                data-testid="preview-sms"
                style={{
                  maxWidth: '85%',
                  padding: '10px 14px',
                  borderRadius: '18px 18px 18px 4px',
                  background: token.colorBgContainer,
                  boxShadow: token.boxShadowTertiary,
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-word',
                }}
              >
                {preview.smsText}
              </div>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('preview.emptySms')} />
            )}
          </div>
          {preview.segments && (
            <Flex justify="center" gap={8} wrap data-testid="preview-sms-parts" data-parts={preview.segments.parts}>
              <Tag color={preview.segments.encoding === 'GSM-7' ? 'green' : 'orange'}>{preview.segments.encoding}</Tag>
              <Typography.Text strong>{t('preview.sendParts', { count: preview.segments.parts })}</Typography.Text>
              <Typography.Text type="secondary">
                {t('sms.characters', { count: preview.segments.characters })} ·{' '}
                {t('sms.perPart', { n: preview.segments.perPart })}
              </Typography.Text>
            </Flex>
          )}
        </Flex>
      )}
    </Flex>
  );
}
