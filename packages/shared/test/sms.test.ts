import { describe, expect, it } from 'vitest';
import { encodeGsm7, isGsm7, SMS_MAX_PARTS, smsPartsOverLimit, smsSegments, splitSms } from '../src/sms.js';

const latin = (n: number) => 'a'.repeat(n);
const cyrillic = (n: number) => 'ж'.repeat(n);

describe('isGsm7', () => {
  it('accepts the basic charset and the extension table', () => {
    expect(isGsm7('Hello @£$¥ èé ÄÖÑÜ§ ΔΩ\n')).toBe(true);
    expect(isGsm7('^{}\\[~]|€')).toBe(true);
  });

  it('rejects Cyrillic, emoji, lowercase ç and a bare escape', () => {
    expect(isGsm7('привет')).toBe(false);
    expect(isGsm7('ok 😀')).toBe(false);
    expect(isGsm7('ç')).toBe(false);
    expect(isGsm7('\x1B')).toBe(false);
  });
});

describe('smsSegments', () => {
  it('fits 160 Latin characters in one part', () => {
    expect(smsSegments(latin(160))).toEqual({ encoding: 'GSM-7', characters: 160, parts: 1, perPart: 160 });
  });

  it('splits 161 Latin characters into 2 parts of 153', () => {
    expect(smsSegments(latin(161))).toEqual({ encoding: 'GSM-7', characters: 161, parts: 2, perPart: 153 });
  });

  it('fits 70 Cyrillic characters in one part and splits 71 into 2 parts of 67', () => {
    expect(smsSegments(cyrillic(70))).toEqual({ encoding: 'UCS-2', characters: 70, parts: 1, perPart: 70 });
    expect(smsSegments(cyrillic(71))).toEqual({ encoding: 'UCS-2', characters: 71, parts: 2, perPart: 67 });
  });

  it('sends 300 Cyrillic characters as 5 parts', () => {
    expect(smsSegments(cyrillic(300))).toMatchObject({ parts: 5, perPart: 67 });
  });

  it('counts an emoji as 2 UCS-2 units', () => {
    expect(smsSegments('😀')).toEqual({ encoding: 'UCS-2', characters: 2, parts: 1, perPart: 70 });
    expect(smsSegments(`${'ж'.repeat(68)}😀`)).toMatchObject({ characters: 70, parts: 1 });
    expect(smsSegments(`${'ж'.repeat(69)}😀`)).toMatchObject({ characters: 71, parts: 2 });
  });

  it('counts € as 2 septets in GSM-7', () => {
    expect(smsSegments('€')).toMatchObject({ encoding: 'GSM-7', characters: 2 });
    expect(smsSegments(`${latin(158)}€`)).toMatchObject({ characters: 160, parts: 1 });
    expect(smsSegments(`${latin(159)}€`)).toMatchObject({ characters: 161, parts: 2 });
  });

  it('gives 0 parts for an empty text', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', characters: 0, parts: 0, perPart: 160 });
  });
});

describe('splitSms', () => {
  it('returns nothing for an empty text and the text itself when it fits', () => {
    expect(splitSms('')).toEqual([]);
    expect(splitSms(latin(160))).toEqual([latin(160)]);
  });

  it('cuts 161 Latin characters at 153', () => {
    expect(splitSms(latin(161)).map((part) => part.length)).toEqual([153, 8]);
  });

  it('cuts 300 Cyrillic characters into 67-unit parts that join back to the text', () => {
    const parts = splitSms(cyrillic(300));
    expect(parts.map((part) => part.length)).toEqual([67, 67, 67, 67, 32]);
    expect(parts.join('')).toBe(cyrillic(300));
  });

  it('never splits an extension escape pair', () => {
    const parts = splitSms(`${latin(152)}€${latin(20)}`);
    expect(parts[0]).toBe(latin(152));
    expect(parts[1]!.startsWith('€')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const parts = splitSms(`${'ж'.repeat(66)}😀${'ж'.repeat(10)}`);
    expect(parts[0]).toBe('ж'.repeat(66));
    expect(parts[1]!.startsWith('😀')).toBe(true);
    expect(smsSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(10)}`).parts).toBe(parts.length);
  });
});

describe('encodeGsm7', () => {
  it('maps to GSM 03.38 codes with ESC before extension characters', () => {
    expect([...encodeGsm7('A@£_€')]).toEqual([0x41, 0x00, 0x01, 0x11, 0x1b, 0x65]);
  });
});

describe('smsPartsOverLimit', () => {
  it('counts only texts over the limit, whatever their characters', () => {
    expect(smsPartsOverLimit('y'.repeat(153 * SMS_MAX_PARTS))).toBeNull();
    expect(smsPartsOverLimit('y'.repeat(153 * SMS_MAX_PARTS + 1))).toBe(SMS_MAX_PARTS + 1);
    expect(smsPartsOverLimit('ж'.repeat(67 * SMS_MAX_PARTS))).toBeNull();
    expect(smsPartsOverLimit('ж'.repeat(67 * SMS_MAX_PARTS + 1))).toBe(SMS_MAX_PARTS + 1);
    // Emoji are never cut in two, so a part holds 66 units: 1,340 units of them take 21 parts.
    expect(smsPartsOverLimit('😀'.repeat(670))).toBe(21);
  });
});
