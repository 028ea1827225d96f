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

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);
