/**
 * Two validators: query strings, params and headers arrive as text and are coerced to their schema's
 * types; JSON bodies are not, so an explicit null stays null instead of becoming 0 or "".
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// Every field's failure at once, so a form marks them all; bodies are size-limited and arrays bounded by their schemas.
const common: Options = { removeAdditional: true, useDefaults: true, allErrors: true, strict: false };
const coercing = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));
const exact = addFormats(new Ajv({ ...common, coerceTypes: false }));

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples']);

/** PostgreSQL text cannot hold NUL, so no string of a request may. */
const NO_NUL = '^[^\\u0000]*$';

/**
 * A copy of the schema with what every database column holds made explicit, so a value beyond it is a field error
 * rather than a database error: integers without bounds stay within what JavaScript holds exactly (not
 * 9223372036854775808 or 1e30), and strings without a pattern of their own hold no NUL.
 */
function storable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(storable);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = DATA_KEYWORDS.has(key) ? value : storable(value);
  if (copy.type === 'integer') {
    copy.maximum ??= Number.MAX_SAFE_INTEGER;
    copy.minimum ??= Number.MIN_SAFE_INTEGER;
  }
  if (copy.type === 'string' && copy.format !== 'binary') copy.pattern ??= NO_NUL;
  return copy;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(storable(schema) as object);
