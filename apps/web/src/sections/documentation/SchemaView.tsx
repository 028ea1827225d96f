/** A JSON schema as a tree table: each property with its type, whether it is required, its limits and description. */
import { Table, Tag, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type JsonSchema, literalValues, type OpenApiDocument, resolveSchema, withoutNull } from './openapi';

interface SchemaRow {
  key: string;
  name: string;
  type: string;
  required: boolean;
  nullable: boolean;
  description?: string;
  limits: string[];
  children?: SchemaRow[];
}

const MAX_DEPTH = 8;

function typeName(document: OpenApiDocument, input: JsonSchema): string {
  const schema = resolveSchema(document, input) ?? {};
  const literals = literalValues(schema);
  if (literals) return literals.map((value) => JSON.stringify(value)).join(' | ');
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map((alternative) => typeName(document, alternative)).join(' | ');
  if (schema.allOf) return schema.allOf.map((part) => typeName(document, part)).join(' & ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `${typeName(document, schema.items ?? {})}[]`;
  if (!type) return schema.properties ? 'object' : 'any';
  return schema.format ? `${type} (${schema.format})` : type;
}

function limitsOf(schema: JsonSchema, t: TFunction): string[] {
  const limits: string[] = [];
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) limits.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) limits.push(`< ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) limits.push(t('schema.minLength', { count: schema.minLength }));
  if (schema.maxLength !== undefined) limits.push(t('schema.maxLength', { count: schema.maxLength }));
  if (schema.minItems !== undefined) limits.push(t('schema.minItems', { count: schema.minItems }));
  if (schema.maxItems !== undefined) limits.push(t('schema.maxItems', { count: schema.maxItems }));
  if (schema.pattern !== undefined) limits.push(t('schema.pattern', { pattern: schema.pattern }));
  if (schema.default !== undefined) limits.push(t('schema.default', { value: JSON.stringify(schema.default) }));
  return limits;
}

/** The object whose properties become child rows: the schema itself, an array's items, or a nullable's other side. */
function nestedObject(document: OpenApiDocument, input: JsonSchema): JsonSchema | undefined {
  const { schema } = withoutNull(resolveSchema(document, input) ?? {});
  if (schema.properties) return schema;
  if (schema.items) return nestedObject(document, schema.items);
  if (schema.allOf) {
    const properties = Object.assign({}, ...schema.allOf.map((part) => nestedObject(document, part)?.properties ?? {}));
    const required = schema.allOf.flatMap((part) => nestedObject(document, part)?.required ?? []);
    return Object.keys(properties).length > 0 ? { type: 'object', properties, required } : undefined;
  }
  return undefined;
}

function propertyRows(document: OpenApiDocument, schema: JsonSchema, prefix: string, depth: number, t: TFunction): SchemaRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const resolved = resolveSchema(document, property) ?? {};
    const { schema: inner, nullable } = withoutNull(resolved);
    const nested = depth < MAX_DEPTH ? nestedObject(document, inner) : undefined;
    const children = nested ? propertyRows(document, nested, `${prefix}${name}.`, depth + 1, t) : [];
    return {
      key: `${prefix}${name}`,
      name,
      type: typeName(document, inner),
      required: required.has(name),
      nullable,
      description: resolved.description ?? inner.description,
      limits: limitsOf(inner, t),
      children: children.length > 0 ? children : undefined,
    };
  });
}

function schemaRows(document: OpenApiDocument, input: JsonSchema, t: TFunction): SchemaRow[] {
  const resolved = resolveSchema(document, input) ?? {};
  const nested = nestedObject(document, resolved);
  const { schema } = withoutNull(resolved);
  if (nested && (schema.properties || schema.allOf)) return propertyRows(document, nested, '', 0, t);
  // Anything but an object (an array, a string...) is one row describing the whole value.
  const children = nested ? propertyRows(document, nested, '[].', 1, t) : undefined;
  return [
    {
      key: '$',
      name: t('schema.wholeValue'),
      type: typeName(document, resolved),
      required: true,
      nullable: withoutNull(resolved).nullable,
      description: resolved.description,
      limits: limitsOf(schema, t),
      children,
    },
  ];
}

export function SchemaView({ document, schema, testId }: { document: OpenApiDocument; schema: JsonSchema; testId?: string }) {
  const { t } = useTranslation('documentation');
  const { token } = theme.useToken();
  const rows = schemaRows(document, schema, t);
  const columns: ColumnsType<SchemaRow> = [
    {
      key: 'name',
      title: t('schema.name'),
      width: '28%',
      render: (_, row) => (
        <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
          {row.name}
          {row.required && <span style={{ color: token.colorError }}> *</span>}
        </Typography.Text>
      ),
    },
    {
      key: 'type',
      title: t('schema.type'),
      width: '26%',
      render: (_, row) => (
        <Typography.Text type="secondary" style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-word' }}>
          {row.type}
          {row.nullable && ' | null'}
        </Typography.Text>
      ),
    },
    {
      key: 'description',
      title: t('schema.description'),
      render: (_, row) => (
        <>
          {row.description && <div>{row.description}</div>}
          {row.limits.map((limit) => (
            <Tag key={limit} style={{ marginTop: 4 }}>
              {limit}
            </Tag>
          ))}
        </>
      ),
    },
  ];
  return (
    <Table<SchemaRow>
      data-testid={testId}
      size="small"
      rowKey="key"
      columns={columns}
      dataSource={rows}
      pagination={false}
      expandable={{ defaultExpandAllRows: true }}
      locale={{ emptyText: t('schema.noProperties') }}
    />
  );
}
