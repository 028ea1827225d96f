/** The API part: how to call Herald, then every operation of the OpenAPI document grouped by tag, public API first. */
import { ApiOutlined, KeyOutlined, LinkOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Collapse, Descriptions, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsMobile } from '../../layout/useIsMobile';
import { SearchBox } from '../../ui/SearchBox';
import { CodeBlock } from './CodeBlock';
import { MethodTag, OperationView } from './OperationView';
import { groupOperations, type OpenApiDocument, type OperationEntry, type TagGroup } from './openapi';
import { WEBHOOK_PYTHON } from './samples';
import { ApiKeyField } from './TryIt';

const OPENAPI_URL = '/api/openapi.json';

function matches(entry: OperationEntry, tag: string, search: string): boolean {
  if (!search) return true;
  const haystack = `${entry.method} ${entry.path} ${entry.operation.summary ?? ''} ${tag}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

function OperationGroup({ document, group, origin }: { document: OpenApiDocument; group: TagGroup; origin: string }) {
  const { t } = useTranslation('documentation');
  // The first public operation opens by itself, so the page starts with a complete example.
  const [open, setOpen] = useState<string[]>(() => (group.isPublic && group.operations[0] ? [group.operations[0].id] : []));
  return (
    <section data-testid="operation-group" data-tag={group.tag}>
      <Flex align="baseline" gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(`tags.${group.tag}`, { defaultValue: group.tag })}
        </Typography.Title>
        <Typography.Text type="secondary" code>
          {group.tag}
        </Typography.Text>
      </Flex>
      {group.description && <Typography.Paragraph type="secondary">{group.description}</Typography.Paragraph>}
      <Collapse
        activeKey={open}
        onChange={(keys) => setOpen(Array.isArray(keys) ? keys : [keys])}
        items={group.operations.map((entry) => ({
          key: entry.id,
          label: (
            <Flex align="center" gap={10} wrap style={{ minWidth: 0 }} data-testid="operation" data-operation={entry.id}>
              <MethodTag method={entry.method} />
              <Typography.Text strong style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                {entry.path}
              </Typography.Text>
              <Typography.Text type="secondary">{entry.operation.summary}</Typography.Text>
              {entry.operation.deprecated && <Tag color="default">{t('operation.deprecated')}</Tag>}
            </Flex>
          ),
          children: <OperationView document={document} entry={entry} origin={origin} />,
        }))}
      />
    </section>
  );
}

export interface ApiReferenceProps {
  document: OpenApiDocument | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}

export function ApiReference({ document, loading, error, onRetry }: ApiReferenceProps) {
  const { t } = useTranslation('documentation');
  const mobile = useIsMobile();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search.trim());
  const origin = window.location.origin;
  const groups = useMemo(() => (document ? groupOperations(document) : []), [document]);
  const visible = groups
    .map((group) => ({ ...group, operations: group.operations.filter((entry) => matches(entry, group.tag, deferredSearch)) }))
    .filter((group) => group.operations.length > 0);
  const publicGroups = visible.filter((group) => group.isPublic);
  const consoleGroups = visible.filter((group) => !group.isPublic);
  const count = groups.reduce((total, group) => total + group.operations.length, 0);

  return (
    <Flex vertical gap={16} data-testid="documentation-api">
      <Card variant="borderless">
        <Flex vertical gap={12}>
          <Flex align="center" gap={12}>
            <ApiOutlined style={{ fontSize: 28 }} />
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('api.title')}
            </Typography.Title>
            {document && <Tag>{t('api.version', { version: document.info.version })}</Tag>}
          </Flex>
          <Typography.Paragraph style={{ margin: 0, maxWidth: 820 }}>{t('api.description')}</Typography.Paragraph>
          {/* A code sample wider than a phone scrolls inside the summary, not the page. */}
          <div style={{ overflowX: 'auto', maxWidth: '100%' }}>
            <Descriptions
              size="small"
              column={1}
              bordered
              // On a phone each label sits above its value, and long values wrap instead of widening the page.
              layout={mobile ? 'vertical' : 'horizontal'}
              styles={{ content: { overflowWrap: 'anywhere' } }}
              items={[
                {
                  key: 'base',
                  label: t('api.baseUrl'),
                  children: <Typography.Text code copyable>{`${origin}/api/v1`}</Typography.Text>,
                },
                {
                  key: 'auth',
                  label: t('api.authentication'),
                  children: (
                    <Flex vertical gap={4}>
                      <span>
                        <Typography.Text code>Authorization: Bearer hk_…</Typography.Text> {t('api.authOr')}{' '}
                        <Typography.Text code>X-Api-Key: hk_…</Typography.Text>
                      </span>
                      <Typography.Text type="secondary">{t('api.authHint')}</Typography.Text>
                    </Flex>
                  ),
                },
                {
                  key: 'idempotency',
                  label: t('api.idempotency'),
                  children: t('api.idempotencyHint'),
                },
                {
                  key: 'errors',
                  label: t('api.errors'),
                  children: (
                    <Typography.Text code>{'{ statusCode, key, message, fields: [{ field, key, message }] }'}</Typography.Text>
                  ),
                },
                {
                  key: 'webhooks',
                  label: t('api.webhooks'),
                  children: (
                    <Flex vertical gap={8}>
                      <span>{t('api.webhooksHint')}</span>
                      <Typography.Text code>
                        {'X-Herald-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">'}
                      </Typography.Text>
                      <CodeBlock code={WEBHOOK_PYTHON} testId="webhook-python" />
                    </Flex>
                  ),
                },
                {
                  key: 'key',
                  label: t('api.yourKey'),
                  children: (
                    <Flex vertical gap={4}>
                      <ApiKeyField />
                      <Typography.Text type="secondary">{t('tryIt.keyHint')}</Typography.Text>
                    </Flex>
                  ),
                },
              ]}
            />
          </div>
          <Flex gap={8} wrap>
            <Link to="/integration/keys">
              <Button type="primary" icon={<KeyOutlined />} data-testid="documentation-create-key">
                {t('api.createKey')}
              </Button>
            </Link>
            <Button icon={<LinkOutlined />} href={OPENAPI_URL} target="_blank" rel="noreferrer">
              {t('api.openapi')}
            </Button>
          </Flex>
        </Flex>
      </Card>

      {loading && <Skeleton active paragraph={{ rows: 8 }} data-testid="documentation-loading" />}
      {error && (
        <Alert
          type="error"
          showIcon
          data-testid="documentation-error"
          title={t('api.loadFailed')}
          description={error.message}
          action={<Button onClick={onRetry}>{t('api.retry')}</Button>}
        />
      )}
      {document && (
        <>
          <Flex align="center" justify="space-between" gap={12} wrap>
            <SearchBox
              testId="documentation-search"
              value={search}
              onSearch={setSearch}
              placeholder={t('api.search')}
              width={360}
            />
            <Typography.Text type="secondary" data-testid="documentation-count">
              {t('api.count', { count })}
            </Typography.Text>
          </Flex>
          {visible.length === 0 && <Empty description={t('api.nothingFound')} />}
          {publicGroups.length > 0 && (
            <Flex vertical gap={16} data-testid="public-operations">
              <Typography.Title level={3} style={{ margin: 0 }}>
                {t('api.publicTitle')}
              </Typography.Title>
              {publicGroups.map((group) => (
                <OperationGroup key={group.tag} document={document} group={group} origin={origin} />
              ))}
            </Flex>
          )}
          {consoleGroups.length > 0 && (
            <Flex vertical gap={16} data-testid="console-operations">
              <div>
                <Typography.Title level={3} style={{ margin: 0 }}>
                  {t('api.consoleTitle')}
                </Typography.Title>
                <Typography.Text type="secondary">{t('api.consoleHint')}</Typography.Text>
              </div>
              {consoleGroups.map((group) => (
                <OperationGroup key={group.tag} document={document} group={group} origin={origin} />
              ))}
            </Flex>
          )}
        </>
      )}
    </Flex>
  );
}
