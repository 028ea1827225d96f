/** Errors every route throws; the error handler turns them into the API's one error shape. */
import type { ErrorKey, RuleFailure } from '@herald/shared';

export interface FieldFailure extends RuleFailure {
  field: string;
}

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    readonly fields: FieldFailure[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
  }
}

export const notFound = () => new AppError(404, 'error.notFound');

/** 400 naming each field that broke a rule; nothing has been written when this is thrown. */
export function invalidFields(fields: FieldFailure[]): AppError {
  return new AppError(400, 'error.validation', {}, fields);
}

export function invalidField(field: string, failure: RuleFailure): AppError {
  return invalidFields([{ field, ...failure }]);
}

/** Throws the field failures collected by a form's checks, if any. */
export function assertFields(checks: Record<string, RuleFailure | null>): void {
  const fields = Object.entries(checks)
    .filter((entry): entry is [string, RuleFailure] => entry[1] !== null)
    .map(([field, failure]) => ({ field, ...failure }));
  if (fields.length > 0) throw invalidFields(fields);
}
