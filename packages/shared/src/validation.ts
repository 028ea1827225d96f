/** Validation rules of the spec's section 5, shared by the console forms and the server. */
import type { ErrorKey } from './errors.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 15;

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PHONE_PATTERN = /^\+?[1-9]\d{9,}$/;
export const TEMPLATE_NAME_PATTERN = /^[A-Za-z0-9_()-]+$/;
export const OPERATOR_CODES_PATTERN = /^[0-9 ,]+$/;
export const URL_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'] as const;

/** A failed rule: the message key plus values to interpolate into its text. */
export interface RuleFailure {
  key: ErrorKey;
  params?: Record<string, string | number>;
}

export function checkPassword(password: string | undefined | null): RuleFailure | null {
  if (!password) return { key: 'validation.passwordMissing' };
  if (password.length < PASSWORD_MIN) return { key: 'validation.passwordTooShort', params: { n: PASSWORD_MIN } };
  if (password.length > PASSWORD_MAX) return { key: 'validation.passwordTooLong', params: { n: PASSWORD_MAX } };
  if (!/\d/.test(password) || !/[a-z]/.test(password) || !/[A-Z]/.test(password)) {
    return { key: 'validation.passwordWeak' };
  }
  return null;
}

export function checkPasswordConfirmation(password: string, confirmation: string): RuleFailure | null {
  return password === confirmation ? null : { key: 'validation.passwordMismatch' };
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** Username on registration must be an e-mail address. */
export function checkUsername(username: string | undefined | null): RuleFailure | null {
  const trimmed = (username ?? '').trim();
  if (!trimmed) return { key: 'validation.usernameMissing' };
  if (!isEmail(trimmed)) return { key: 'validation.invalidEmail' };
  return null;
}

export function isPhone(value: string): boolean {
  return PHONE_PATTERN.test(value);
}

export function isValidTemplateName(name: string): boolean {
  return TEMPLATE_NAME_PATTERN.test(name);
}

export function isValidOperatorCodes(codes: string): boolean {
  return OPERATOR_CODES_PATTERN.test(codes);
}

export function isAllowedUrl(value: string): boolean {
  try {
    return (URL_SCHEMES as readonly string[]).includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** An address a server can call: http or https, any host (a webhook on localhost or the intranet included). */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export const FEEDBACK_FILE_TYPES: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
};

/** Feedback attachments must be png or jpeg by both MIME type and extension. */
export function isAllowedFeedbackFile(fileName: string, mimeType: string): boolean {
  const extension = fileName.split('.').pop()?.toLowerCase() ?? '';
  return FEEDBACK_FILE_TYPES[mimeType]?.includes(extension) ?? false;
}
