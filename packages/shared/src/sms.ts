/**
 * SMS segment arithmetic shared by the console (live counter under the text box) and the SMPP channel
 * (which submits exactly the parts splitSms returns), so what the user is shown is what gets billed.
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2. */
  characters: number;
  parts: number;
  /** Capacity of one part: 160/153 for GSM-7, 70/67 for UCS-2 (single / concatenated). */
  perPart: number;
}

/** GSM 03.38 default alphabet in code order; 0x1B is the escape to the extension table, never a character. */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1BÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_ESCAPE = 0x1b;
/** GSM 03.38 extension table: each is sent as ESC + this code, so it costs two septets. */
const GSM7_EXTENSION: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);
/** Marks an extension code in GSM7_TABLE. */
const EXTENDED = 0x100;
const NOT_GSM7 = 0x200;
/**
 * Per UTF-16 code unit up to € (the highest the alphabet uses): its basic code, EXTENDED | its extension code, or
 * NOT_GSM7. The SMPP channel looks up every character of every message, which a table does several times faster than a Map.
 */
const GSM7_TABLE = buildGsm7Table();

function buildGsm7Table(): Uint16Array {
  const table = new Uint16Array(Math.max(...[...GSM7_BASIC, ...GSM7_EXTENSION.keys()].map((char) => char.charCodeAt(0))) + 1);
  table.fill(NOT_GSM7);
  [...GSM7_BASIC].forEach((char, code) => {
    if (code !== GSM7_ESCAPE) table[char.charCodeAt(0)] = code;
  });
  for (const [char, code] of GSM7_EXTENSION) table[char.charCodeAt(0)] = EXTENDED | code;
  return table;
}

function gsm7Code(unit: number): number {
  return unit < GSM7_TABLE.length ? GSM7_TABLE[unit]! : NOT_GSM7;
}

const GSM7_SINGLE = 160;
const GSM7_CONCATENATED = 153;
const UCS2_SINGLE = 70;
const UCS2_CONCATENATED = 67;

/** True when every character is in the GSM 03.38 basic charset or its extension table. */
export function isGsm7(text: string): boolean {
  // Every GSM character is one UTF-16 unit, so a half of a surrogate pair simply fails the lookup.
  for (let i = 0; i < text.length; i++) if (gsm7Code(text.charCodeAt(i)) === NOT_GSM7) return false;
  return true;
}

function gsm7Length(text: string): number {
  let septets = text.length;
  for (let i = 0; i < text.length; i++) if (gsm7Code(text.charCodeAt(i)) & EXTENDED) septets++;
  return septets;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Greedy cut into parts of at most `limit` units, never between ESC and its extension code or inside a surrogate pair. */
function cut(text: string, gsm: boolean, limit: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const pair = !gsm && isHighSurrogate(code) && i + 1 < text.length;
    const width = pair ? 2 : 1;
    const cost = gsm ? (gsm7Code(code) & EXTENDED ? 2 : 1) : width;
    if (used + cost > limit) {
      parts.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += cost;
    i += width;
  }
  if (i > start) parts.push(text.slice(start));
  return parts;
}

/** The most parts Herald sends one SMS as: 3,060 GSM-7 or 1,340 UCS-2 characters (Twilio stops at 1,600 characters). */
export const SMS_MAX_PARTS = 20;

/**
 * How many parts a text over SMS_MAX_PARTS would take, or null when it fits. A text that fits at 66 UTF-16 units a part
 * (a UCS-2 part less one, where a surrogate pair is not cut) fits whatever it holds, so most texts are never split here
 * (the channel splits them anyway).
 */
export function smsPartsOverLimit(text: string): number | null {
  if (text.length <= SMS_MAX_PARTS * (UCS2_CONCATENATED - 1)) return null;
  const parts = splitSms(text).length;
  return parts > SMS_MAX_PARTS ? parts : null;
}

/** The parts a text is sent as: [] for an empty text, [text] when it fits one SMS, else concatenated parts. */
export function splitSms(text: string): string[] {
  if (text === '') return [];
  const gsm = isGsm7(text);
  const length = gsm ? gsm7Length(text) : text.length;
  if (length <= (gsm ? GSM7_SINGLE : UCS2_SINGLE)) return [text];
  return cut(text, gsm, gsm ? GSM7_CONCATENATED : UCS2_CONCATENATED);
}

export function smsSegments(text: string): SmsSegments {
  const gsm = isGsm7(text);
  const characters = gsm ? gsm7Length(text) : text.length;
  const single = gsm ? GSM7_SINGLE : UCS2_SINGLE;
  const concatenated = characters > single;
  return {
    encoding: gsm ? 'GSM-7' : 'UCS-2',
    characters,
    parts: splitSms(text).length,
    perPart: concatenated ? (gsm ? GSM7_CONCATENATED : UCS2_CONCATENATED) : single,
  };
}

/**
 * GSM-7 text as unpacked septets, one per octet, the way SMPP carries data_coding 0x00
 * (the SMSC packs them). Characters outside the alphabet become '?'; check isGsm7 first.
 */
export function encodeGsm7(text: string): Uint8Array {
  const septets = new Uint8Array(text.length * 2);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const code = gsm7Code(unit);
    if (code === NOT_GSM7) {
      septets[length++] = 0x3f;
      // A character outside the BMP is one '?', not two.
      if (isHighSurrogate(unit) && i + 1 < text.length) i++;
    } else if (code & EXTENDED) {
      septets[length++] = GSM7_ESCAPE;
      septets[length++] = code & 0x7f;
    } else {
      septets[length++] = code;
    }
  }
  return septets.subarray(0, length);
}
