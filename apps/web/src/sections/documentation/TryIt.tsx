/** Sends the real request of one public operation from the browser with the user's API key and shows the answer. */
import { KeyOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Form, Input, Space, Tag, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rememberMessageId, useApiKey, useLastMessageId } from './apiKeyStore';
import { CodeBlock } from './CodeBlock';
import { buildPath, exampleBody, exampleParameter, type OpenApiDocument, type OperationEntry } from './openapi';

interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  ms: number;
}

/** randomUUID exists only in secure contexts; getRandomValues everywhere. */
function newIdempotencyKey(): string {
  if (window.isSecureContext && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The id in a send's answer: the message's own, or the first of a batch. */
function sentMessageId(body: string): number | undefined {
  try {
    const parsed = JSON.parse(body) as { id?: unknown; messages?: { id?: unknown }[] };
    const id = parsed.id ?? parsed.messages?.[0]?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

const OWN_HEADERS = new Set(['authorization', 'x-api-key', 'idempotency-key']);

function statusColor(status: number): string {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warning';
  return 'success';
}

async function readAnswer(response: Response, started: number): Promise<Answer> {
  const text = await response.text();
  let body = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      body = text;
    }
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    body,
    ms: Math.round(performance.now() - started),
  };
}

/** The key field the try-it panels share; also shown at the top of the API part. */
export function ApiKeyField({ testId = 'doc-api-key' }: { testId?: string }) {
  const { t } = useTranslation('documentation');
  const [apiKey, setApiKey] = useApiKey();
  return (
    <Input.Password
      data-testid={testId}
      prefix={<KeyOutlined />}
      placeholder={t('tryIt.keyPlaceholder')}
      value={apiKey}
      onChange={(event) => setApiKey(event.target.value.trim())}
      autoComplete="off"
      allowClear
      style={{ maxWidth: 460 }}
    />
  );
}

export function TryIt({ document, entry }: { document: OpenApiDocument; entry: OperationEntry }) {
  const { t } = useTranslation('documentation');
  const { token } = theme.useToken();
  const [apiKey] = useApiKey();
  const lastMessageId = useLastMessageId();
  // Credentials and the idempotency key have fields of their own.
  const parameters = (entry.operation.parameters ?? []).filter(
    (parameter) => parameter.in !== 'cookie' && !(parameter.in === 'header' && OWN_HEADERS.has(parameter.name.toLowerCase())),
  );
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      parameters
        .filter((parameter) => parameter.in === 'path' || parameter.required)
        .map((parameter) => [parameter.name, exampleParameter(document, parameter)]),
    ),
  );
  const hasBody = entry.operation.requestBody !== undefined;
  const [body, setBody] = useState(() => (hasBody ? JSON.stringify(exampleBody(document, entry) ?? {}, null, 2) : ''));
  const takesKey = entry.method === 'post';
  const [idempotencyKey, setIdempotencyKey] = useState(() => (takesKey ? newIdempotencyKey() : ''));
  const [answer, setAnswer] = useState<Answer>();
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);

  async function send() {
    setFailure(undefined);
    setAnswer(undefined);
    if (hasBody) {
      try {
        JSON.parse(body);
      } catch (error) {
        setFailure(t('tryIt.badJson', { reason: error instanceof Error ? error.message : String(error) }));
        return;
      }
    }
    const headers = new Headers({ Accept: 'application/json', Authorization: `Bearer ${apiKey}` });
    for (const parameter of parameters) {
      const value = values[parameter.name];
      if (parameter.in === 'header' && value) headers.set(parameter.name, value);
    }
    if (takesKey && idempotencyKey) headers.set('Idempotency-Key', idempotencyKey);
    if (hasBody) headers.set('Content-Type', 'application/json');
    setSending(true);
    const started = performance.now();
    try {
      const response = await fetch(buildPath(entry.path, values, parameters), {
        method: entry.method.toUpperCase(),
        headers,
        body: hasBody ? body : null,
        credentials: 'omit',
      });
      const received = await readAnswer(response, started);
      setAnswer(received);
      const sentId = response.status === 202 ? sentMessageId(received.body) : undefined;
      if (sentId !== undefined) rememberMessageId(sentId);
    } catch (error) {
      setFailure(t('tryIt.networkError', { reason: error instanceof Error ? error.message : String(error) }));
    } finally {
      setSending(false);
    }
  }

  return (
    <Flex
      vertical
      gap={12}
      data-testid="try-it"
      style={{ padding: 16, border: `1px dashed ${token.colorBorder}`, borderRadius: token.borderRadiusLG }}
    >
      <Typography.Text strong>{t('tryIt.title')}</Typography.Text>
      <Form layout="vertical" component="div" style={{ marginBottom: -12 }}>
        <Form.Item label={t('tryIt.apiKey')} extra={t('tryIt.keyHint')}>
          <ApiKeyField testId="try-it-key" />
        </Form.Item>
        {parameters.map((parameter) => (
          <Form.Item
            key={`${parameter.in}:${parameter.name}`}
            label={
              <Space size={6}>
                <Typography.Text code>{parameter.name}</Typography.Text>
                <Typography.Text type="secondary">{t(`parameters.in.${parameter.in}`)}</Typography.Text>
              </Space>
            }
            required={parameter.required}
            extra={
              parameter.in === 'path' &&
              parameter.name === 'id' &&
              lastMessageId !== undefined &&
              values.id !== String(lastMessageId) && (
                <Button
                  type="link"
                  size="small"
                  data-testid="try-it-last-id"
                  style={{ paddingInline: 0 }}
                  onClick={() => setValues((current) => ({ ...current, id: String(lastMessageId) }))}
                >
                  {t('tryIt.useLastId', { id: lastMessageId })}
                </Button>
              )
            }
          >
            <Input
              data-testid={`try-it-param-${parameter.name}`}
              value={values[parameter.name] ?? ''}
              onChange={(event) => setValues((current) => ({ ...current, [parameter.name]: event.target.value }))}
              style={{ maxWidth: 460 }}
            />
          </Form.Item>
        ))}
        {takesKey && (
          <Form.Item label={<Typography.Text code>Idempotency-Key</Typography.Text>} extra={t('tryIt.idempotencyHint')}>
            <Space.Compact style={{ maxWidth: 460, width: '100%' }}>
              <Input
                data-testid="try-it-idempotency-key"
                value={idempotencyKey}
                onChange={(event) => setIdempotencyKey(event.target.value)}
              />
              <Button icon={<ReloadOutlined />} onClick={() => setIdempotencyKey(newIdempotencyKey())}>
                {t('tryIt.newKey')}
              </Button>
            </Space.Compact>
          </Form.Item>
        )}
        {hasBody && (
          <Form.Item label={t('tryIt.body')}>
            <Input.TextArea
              data-testid="try-it-body"
              value={body}
              onChange={(event) => setBody(event.target.value)}
              autoSize={{ minRows: 4, maxRows: 18 }}
              spellCheck={false}
              style={{ fontFamily: token.fontFamilyCode, fontSize: 12.5 }}
            />
          </Form.Item>
        )}
      </Form>
      <Flex gap={12} align="center" wrap>
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={sending}
          disabled={!apiKey}
          onClick={() => void send()}
          data-testid="try-it-send"
        >
          {t('tryIt.send')}
        </Button>
        {!apiKey && <Typography.Text type="secondary">{t('tryIt.needKey')}</Typography.Text>}
      </Flex>
      {failure && <Alert type="error" showIcon title={failure} data-testid="try-it-failure" />}
      {answer && (
        <Flex vertical gap={8} data-testid="try-it-answer">
          <Space size={8}>
            <Tag color={statusColor(answer.status)} data-testid="try-it-status" style={{ fontSize: 14, padding: '2px 10px' }}>
              {answer.status} {answer.statusText}
            </Tag>
            <Typography.Text type="secondary">{t('tryIt.duration', { ms: answer.ms })}</Typography.Text>
          </Space>
          <Typography.Text type="secondary">{t('tryIt.headers')}</Typography.Text>
          <CodeBlock
            testId="try-it-headers"
            code={answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n')}
            maxHeight={180}
          />
          <Typography.Text type="secondary">{t('tryIt.answerBody')}</Typography.Text>
          <CodeBlock testId="try-it-response-body" code={answer.body || t('tryIt.emptyBody')} maxHeight={420} />
        </Flex>
      )}
    </Flex>
  );
}
