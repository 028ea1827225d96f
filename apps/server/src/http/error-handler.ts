/** Maps every failure to { statusCode, key, message, fields } in the request's language. */
import type { ApiErrorBody, Language } from '@herald/shared';
import { errorText } from '@herald/shared/error-messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type FieldFailure } from './errors.js';

interface SchemaIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

const TYPE_KEYS: Record<string, FieldFailure['key']> = {
  number: 'validation.notNumber',
  integer: 'validation.notWholeNumber',
  string: 'validation.notText',
  boolean: 'validation.notBoolean',
  array: 'validation.notList',
};

const FORMAT_KEYS: Record<string, FieldFailure['key']> = {
  email: 'validation.invalidEmail',
  uri: 'validation.invalidUrl',
  'date-time': 'validation.invalidDate',
  date: 'validation.invalidDate',
};

/** What a schema keyword's failure tells the user, with its limit where it has one. */
function failureOf(issue: SchemaIssue): Pick<FieldFailure, 'key' | 'params'> {
  const n = Number(issue.params.limit);
  switch (issue.keyword) {
    case 'maxLength':
      return { key: 'validation.tooLong', params: { n } };
    case 'minLength':
      return n <= 1 ? { key: 'validation.mandatory' } : { key: 'validation.tooShort', params: { n } };
    case 'minimum':
    case 'exclusiveMinimum':
      return { key: 'validation.atLeast', params: { n } };
    case 'maximum':
    case 'exclusiveMaximum':
      return { key: 'validation.atMost', params: { n } };
    case 'maxItems':
      return { key: 'validation.tooManyItems', params: { n } };
    case 'type':
      return { key: TYPE_KEYS[String(issue.params.type)] ?? 'validation.invalidValue' };
    case 'format':
      return { key: FORMAT_KEYS[String(issue.params.format)] ?? 'validation.invalidValue' };
    case 'const':
    case 'enum':
      return { key: 'validation.notInList' };
    default:
      return { key: 'validation.invalidValue' };
  }
}

/** One failure per field: a union (anyOf) reports its value once per branch it failed, and once more for the union. */
function fieldsFromSchema(issues: SchemaIssue[]): FieldFailure[] {
  const byField = new Map<string, FieldFailure>();
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const failure: FieldFailure =
      issue.keyword === 'required'
        ? {
            field: path ? `${path}.${String(issue.params.missingProperty ?? '')}` : String(issue.params.missingProperty ?? ''),
            key: 'validation.mandatory',
          }
        : { field: path || 'body', ...failureOf(issue) };
    if (!byField.has(failure.field)) byField.set(failure.field, failure);
  }
  return [...byField.values()];
}

const BUSY_RETRY_AFTER_S = 5;

function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function toAppError(error: FastifyError | AppError, bodyLimit: number): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) return new AppError(400, 'error.validation', {}, fieldsFromSchema(error.validation as SchemaIssue[]));
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return new AppError(400, 'error.invalidJson');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return new AppError(413, 'error.payloadTooLarge', { limit: humanSize(bodyLimit) });
  }
  // SQLite's write lock stayed taken past the wait (a large import being saved): nothing was written, try again.
  if (error.code === 'SQLITE_BUSY') return new AppError(503, 'error.busy', {}, [], { 'retry-after': String(BUSY_RETRY_AFTER_S) });
  if (error.statusCode === 429) return new AppError(429, 'error.tooManyRequests', { minutes: 1 });
  if (error.statusCode === 404) return new AppError(404, 'error.notFound');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return new AppError(error.statusCode, 'error.badRequest');
  return new AppError(500, 'error.internal');
}

export function errorBody(error: AppError, language: Language): ApiErrorBody {
  const fields = error.fields.map((f) => ({ field: f.field, key: f.key, message: errorText(f.key, language, f.params) }));
  const body: ApiErrorBody = {
    statusCode: error.statusCode,
    key: error.key,
    message: fields[0]?.message ?? errorText(error.key, language, error.params),
  };
  if (fields.length > 0) body.fields = fields;
  return body;
}

export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    // A route may take more than the server's default (the batch send does).
    const appError = toAppError(error, request.routeOptions.bodyLimit ?? bodyLimit);
    if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    reply.status(appError.statusCode).headers(appError.headers).send(errorBody(appError, request.lang));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(new AppError(404, 'error.notFound'), request.lang));
  });
}
