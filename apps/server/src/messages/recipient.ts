/**
 * A recipient as the ledger keeps it: e-mail in lower case, as contacts are, and phones in E.164 without spaces. The API
 * stores what it is sent this way, and the message log finds a recipient however it is typed.
 */
import { isEmail, isPhone } from '@herald/shared';
import { validPhone } from '../contacts/fields.js';

export function emailRecipient(value: string): string | null {
  const address = value.trim().toLowerCase();
  return isEmail(address) ? address : null;
}

/** A number some country's numbering plan holds (as contacts' phones are checked), in E.164. */
export function phoneRecipient(value: string): string | null {
  const compact = value.replace(/[\s().-]/g, '');
  if (!isPhone(compact)) return null;
  return validPhone(compact.startsWith('+') ? compact : `+${compact}`, undefined)?.e164 ?? null;
}
