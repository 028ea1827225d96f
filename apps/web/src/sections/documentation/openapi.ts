/** The part of OpenAPI 3.1 the documentation reads, and how it orders, names and exemplifies operations (no React, no I/O). */
const PUBLIC_API_PREFIX = '/api/v1/';

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  description?: string;
  title?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
}

export interface Response {
  description?: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<HttpMethod, Operation>>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; in?: string; name?: string; description?: string }>;
  };
  security?: Record<string, string[]>[];
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  /** `METHOD path`, unique within the document. */
  id: string;
  method: HttpMethod;
  path: string;
  operation: Operation;
  /** Part of the public sending API (API key), rather than the console's own calls (session token). */
  isPublic: boolean;
}

export interface TagGroup {
  tag: string;
  description?: string;
  isPublic: boolean;
  operations: OperationEntry[];
}

function securityOf(document: OpenApiDocument, operation: Operation): Record<string, string[]>[] {
  return operation.security ?? document.security ?? [];
}

/** Public operations go by API key: under /api/v1, or secured by a scheme other than the console's token. */
function isPublicOperation(document: OpenApiDocument, path: string, operation: Operation): boolean {
  if (path.startsWith(PUBLIC_API_PREFIX)) return true;
  return securityOf(document, operation).some((requirement) => Object.keys(requirement).some((name) => name === 'apiKey'));
}

/** Operations grouped by their first tag: groups with public operations first, then the rest in document order. */
export function groupOperations(document: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  const described = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      const isPublic = isPublicOperation(document, path, operation);
      const group = groups.get(tag) ?? { tag, description: described.get(tag), isPublic: false, operations: [] };
      group.isPublic ||= isPublic;
      group.operations.push({ id: `${method.toUpperCase()} ${path}`, method, path, operation, isPublic });
      groups.set(tag, group);
    }
  }
  const ordered = [...groups.values()];
  for (const group of ordered) group.operations.sort((a, b) => Number(b.isPublic) - Number(a.isPublic));
  return [...ordered.filter((group) => group.isPublic), ...ordered.filter((group) => !group.isPublic)];
}

/** Follows a local `$ref` (#/components/schemas/Name); anything else is kept as it is. */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 10; depth += 1) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name ? document.components?.schemas?.[decodeURIComponent(name)] : undefined;
    if (!target) return current;
    current = target;
  }
  return current;
}

export function jsonContent(content: Record<string, MediaType> | undefined): MediaType | undefined {
  if (!content) return undefined;
  return content['application/json'] ?? Object.entries(content).find(([type]) => type.includes('json'))?.[1];
}

/** The schema without its `null` alternative, and whether null is allowed. */
export function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const rest = alternatives.filter((alternative) => alternative.type !== 'null');
    if (rest.length < alternatives.length) {
      const only = rest.length === 1 ? rest[0]! : { ...schema, anyOf: rest, oneOf: undefined };
      return { schema: only, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((type) => type !== 'null');
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

/** Literal values of an enum, a const, or a union of consts/single-value enums (TypeBox's Union of Literals). */
export function literalValues(schema: JsonSchema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives?.length) return undefined;
  const values: unknown[] = [];
  for (const alternative of alternatives) {
    const own = alternative.const !== undefined ? [alternative.const] : alternative.enum;
    if (!own) return undefined;
    values.push(...own);
  }
  return values;
}

/** Values for a few operations whose schema alone would give an example the server refuses (e.g. template or content). */
const CURATED_BODIES: Record<string, unknown> = {
  'POST /api/v1/messages': {
    channel: 'email',
    to: 'recipient@example.com',
    content: { subject: 'Hello from Herald', text: 'It works.' },
  },
  'POST /api/v1/messages/batch': {
    messages: [
      { channel: 'email', to: 'anna@example.com', content: { subject: 'Hello Anna', text: 'It works.' } },
      { channel: 'sms', to: '+12025550123', content: { text: 'It works.' } },
    ],
  },
};

function exampleString(schema: JsonSchema, name: string): string {
  switch (schema.format) {
    case 'email':
      return 'user@example.com';
    case 'date-time':
      return new Date().toISOString();
    case 'date':
      return new Date().toISOString().slice(0, 10);
    case 'uri':
    case 'url':
      return 'https://example.com';
    default:
      break;
  }
  if (/phone/i.test(name)) return '+12025550123';
  if (/mail/i.test(name)) return 'user@example.com';
  return name || 'string';
}

/** A small example value: declared examples first, otherwise the required properties with plausible values. */
function exampleFromSchema(document: OpenApiDocument, input: JsonSchema | undefined, name = '', depth = 0): unknown {
  const resolved = resolveSchema(document, input);
  if (!resolved || depth > 6) return undefined;
  if (resolved.examples?.length) return resolved.examples[0];
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.default !== undefined) return resolved.default;
  const { schema, nullable } = withoutNull(resolved);
  const literals = literalValues(schema);
  if (literals?.length) return literals[0];
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleFromSchema(document, part, name, depth + 1) ?? {}));
  }
  const alternative = (schema.anyOf ?? schema.oneOf)?.[0];
  if (alternative) return exampleFromSchema(document, alternative, name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {}).filter(([key]) => required.has(key));
      return Object.fromEntries(entries.map(([key, value]) => [key, exampleFromSchema(document, value, key, depth + 1)]));
    }
    case 'array': {
      const item = exampleFromSchema(document, schema.items, name, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'string':
      return exampleString(schema, name);
    case 'null':
      return null;
    default:
      return nullable ? null : undefined;
  }
}

export function exampleBody(document: OpenApiDocument, entry: OperationEntry): unknown {
  const curated = CURATED_BODIES[entry.id];
  if (curated !== undefined) return structuredClone(curated);
  const media = jsonContent(entry.operation.requestBody?.content);
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  return exampleFromSchema(document, media.schema);
}

export function exampleParameter(document: OpenApiDocument, parameter: Parameter): string {
  const value = exampleFromSchema(document, parameter.schema, parameter.name);
  return value === undefined || value === null ? '' : String(value);
}

/** The path with its parameters filled in, plus the query string of the given values (empty ones left out). */
export function buildPath(path: string, values: Record<string, string>, parameters: Parameter[]): string {
  const filled = path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    values[name] !== undefined && values[name] !== '' ? encodeURIComponent(values[name]) : whole,
  );
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    const value = values[parameter.name];
    if (parameter.in === 'query' && value !== undefined && value !== '') query.append(parameter.name, value);
  }
  const search = query.toString();
  return search ? `${filled}?${search}` : filled;
}
