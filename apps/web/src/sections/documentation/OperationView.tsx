/** One operation: its description, parameters, request body, answers, code samples and (public ones) a try-it panel. */
import { Flex, Table, Tabs, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CodeBlock } from './CodeBlock';
import {
  type JsonSchema,
  jsonContent,
  type OpenApiDocument,
  type OperationEntry,
  type Parameter,
  resolveSchema,
} from './openapi';
import { SchemaView } from './SchemaView';
import { SAMPLE_LANGUAGES, sample } from './samples';
import { TryIt } from './TryIt';

const METHOD_COLORS: Record<string, string> = {
  get: 'blue',
  post: 'green',
  put: 'orange',
  patch: 'gold',
  delete: 'red',
  head: 'purple',
  options: 'default',
};

export function MethodTag({ method }: { method: string }) {
  return (
    <Tag
      color={METHOD_COLORS[method] ?? 'default'}
      style={{ minWidth: 62, textAlign: 'center', fontFamily: 'monospace', fontWeight: 600, marginInlineEnd: 0 }}
    >
      {method.toUpperCase()}
    </Tag>
  );
}

function statusColor(status: string): string {
  if (status.startsWith('2')) return 'success';
  if (status.startsWith('4')) return 'warning';
  if (status.startsWith('5')) return 'error';
  return 'default';
}

/** Fastify's placeholder description is replaced by what the status means. */
function responseText(t: TFunction, status: string, description: string | undefined): string {
  if (description && description !== 'Default Response') return description;
  return t(`statusText.${status}`, { defaultValue: description ?? status });
}

/** Property names of an object answer, optional ones marked with a question mark. */
function topLevelFields(document: OpenApiDocument, input: JsonSchema): string[] {
  const schema = resolveSchema(document, input);
  const required = new Set(schema?.required ?? []);
  return Object.keys(schema?.properties ?? {}).map((name) => (required.has(name) ? name : `${name}?`));
}

function Parameters({ parameters }: { parameters: Parameter[] }) {
  const { t } = useTranslation('documentation');
  return (
    <Table<Parameter>
      data-testid="operation-parameters"
      size="small"
      rowKey={(parameter) => `${parameter.in}:${parameter.name}`}
      pagination={false}
      dataSource={parameters}
      columns={[
        {
          key: 'name',
          title: t('schema.name'),
          width: '28%',
          render: (_, parameter) => (
            <Typography.Text code>
              {parameter.name}
              {parameter.required && <Typography.Text type="danger"> *</Typography.Text>}
            </Typography.Text>
          ),
        },
        { key: 'in', title: t('parameters.location'), width: 110, render: (_, parameter) => t(`parameters.in.${parameter.in}`) },
        {
          key: 'type',
          title: t('schema.type'),
          width: '20%',
          render: (_, parameter) => (
            <Typography.Text type="secondary" style={{ fontFamily: 'monospace', fontSize: 12 }}>
              {parameterType(parameter)}
            </Typography.Text>
          ),
        },
        { key: 'description', title: t('schema.description'), render: (_, parameter) => parameter.description },
      ]}
    />
  );
}

function parameterType(parameter: Parameter): string {
  const schema = parameter.schema ?? {};
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'string');
  return schema.format ? `${type} (${schema.format})` : type;
}

export function OperationView({ document, entry, origin }: { document: OpenApiDocument; entry: OperationEntry; origin: string }) {
  const { t } = useTranslation('documentation');
  const { operation } = entry;
  const parameters = operation.parameters ?? [];
  const body = jsonContent(operation.requestBody?.content);
  const bodyTypes = Object.keys(operation.requestBody?.content ?? {});
  const responses = Object.entries(operation.responses ?? {});

  return (
    <Flex vertical gap={16} data-testid="operation-details">
      {operation.description && <Typography.Paragraph style={{ margin: 0 }}>{operation.description}</Typography.Paragraph>}
      {parameters.length > 0 && (
        <section>
          <Typography.Title level={5}>{t('operation.parameters')}</Typography.Title>
          <Parameters parameters={parameters} />
        </section>
      )}
      {operation.requestBody && (
        <section>
          <Typography.Title level={5}>
            {t('operation.requestBody')}{' '}
            {bodyTypes.map((type) => (
              <Tag key={type} style={{ fontWeight: 400 }}>
                {type}
              </Tag>
            ))}
          </Typography.Title>
          {operation.requestBody.description && <Typography.Paragraph>{operation.requestBody.description}</Typography.Paragraph>}
          {body?.schema && <SchemaView document={document} schema={body.schema} testId="operation-body-schema" />}
        </section>
      )}
      <section>
        <Typography.Title level={5}>{t('operation.responses')}</Typography.Title>
        <Flex vertical gap={12} data-testid="operation-responses">
          {responses.map(([status, response]) => {
            const content = jsonContent(response.content);
            const headers = Object.entries(response.headers ?? {});
            const success = status.startsWith('2');
            const fields = content?.schema ? topLevelFields(document, content.schema) : [];
            return (
              <Flex key={status} vertical gap={6} data-testid={`response-${status}`}>
                <Flex gap={8} align="center" wrap>
                  <Tag color={statusColor(status)} style={{ fontFamily: 'monospace', fontWeight: 600, marginInlineEnd: 0 }}>
                    {status}
                  </Tag>
                  <Typography.Text type="secondary">{responseText(t, status, response.description)}</Typography.Text>
                  {/* Error answers all share one shape (described at the top), so only their field names are listed. */}
                  {!success && fields.length > 0 && <Typography.Text code>{`{ ${fields.join(', ')} }`}</Typography.Text>}
                </Flex>
                {headers.length > 0 && (
                  <Typography.Text type="secondary">
                    {t('operation.headers')}{' '}
                    {headers.map(([name, header]) => (
                      <Typography.Text key={name} code title={header.description}>
                        {name}
                      </Typography.Text>
                    ))}
                  </Typography.Text>
                )}
                {success && content?.schema && <SchemaView document={document} schema={content.schema} />}
              </Flex>
            );
          })}
        </Flex>
      </section>
      <section>
        <Typography.Title level={5}>{t('operation.samples')}</Typography.Title>
        <Tabs
          size="small"
          data-testid="operation-samples"
          items={SAMPLE_LANGUAGES.map((language) => ({
            key: language,
            label: t(`samples.${language}`),
            children: <CodeBlock testId={`sample-${language}`} code={sample(language, { document, entry, origin })} />,
          }))}
        />
      </section>
      {entry.isPublic ? (
        <TryIt document={document} entry={entry} />
      ) : (
        <Typography.Text type="secondary">{t('operation.consoleOnly')}</Typography.Text>
      )}
    </Flex>
  );
}
