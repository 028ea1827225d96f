/**
 * Two validators: query strings, params and headers arrive as text and are coerced to their schema's
 * types; JSON bodies are not, so an explicit null stays null instead of becoming 0 or "".
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { removeAdditional: true, useDefaults: true, allErrors: false, strict: false };
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
const exact = addFormats(new Ajv({ ...common, coerceTypes: false }));

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

/**
 * A copy of the schema in which every integer without bounds stays within what JavaScript and the id columns hold
 * exactly: a larger number (9223372036854775808, 1e30) is a field error, not a database error.
 */
function withSafeIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withSafeIntegers);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = DATA_KEYWORDS.has(key) ? value : withSafeIntegers(value);
  if (copy.type === 'integer') {
    copy.maximum ??= Number.MAX_SAFE_INTEGER;
    copy.minimum ??= Number.MIN_SAFE_INTEGER;
  }
  return copy;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(withSafeIntegers(schema) as object);
