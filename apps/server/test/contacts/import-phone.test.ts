import { getCountries, getCountryCallingCode, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { INVALID, normalisePhone } from '../../src/contacts/fields.js';
import { fastE164, fastPhone } from '../../src/contacts/import/phone.js';

/** A small seeded generator, so a disagreement shows up the same way on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

function digits(next: (below: number) => number, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += String(next(10));
  return text;
}

/** Every country's example number, then mutations of it: digits changed, dropped, added, and random tails. */
function sample(): string[] {
  const next = random(20261124);
  const numbers: string[] = [];
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples)?.number;
    const code = getCountryCallingCode(country);
    if (example) {
      numbers.push(example);
      for (let round = 0; round < 12; round++) {
        const at = 1 + code.length + next(example.length - code.length - 1);
        numbers.push(`${example.slice(0, at)}${next(10)}${example.slice(at + 1)}`);
      }
      numbers.push(example.slice(0, -1), `${example}${next(10)}`, `${example.slice(0, -2)}${digits(next, 2)}`);
    }
    for (let length = 2; length <= 14; length++) numbers.push(`+${code}${digits(next, length)}`);
    numbers.push(`+${code}0${digits(next, 8)}`, `+${code}8${digits(next, 9)}`);
  }
  for (let round = 0; round < 3000; round++) numbers.push(`+${1 + next(9)}${digits(next, 6 + next(10))}`);
  return numbers;
}

describe('the E.164 fast path', () => {
  it('agrees with libphonenumber on valid and invalid numbers of every country', () => {
    const numbers = sample();
    let answered = 0;
    let valid = 0;
    for (const number of numbers) {
      const fast = fastE164(number);
      if (fast === undefined) continue;
      answered++;
      if (fast !== INVALID) valid++;
      expect([number, fast]).toEqual([number, normalisePhone(number, 'UA')]);
    }
    // The path must actually carry most numbers, valid and invalid alike.
    expect(answered).toBeGreaterThan(numbers.length * 0.8);
    expect(valid).toBeGreaterThan(1000);
    expect(answered - valid).toBeGreaterThan(1000);
  });

  it('leaves anything but plain E.164 to libphonenumber', () => {
    for (const value of ['380501234567', '050 123 45 67', '+380 50 123 45 67', '+38(050)1234567', '+0501234567', '+12', ''])
      expect(fastE164(value)).toBeUndefined();
    expect(fastE164('+380501234567')).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(fastE164('+79161234567')).toEqual({ e164: '+79161234567', country: 'RU' });
    expect(fastE164('+380121234567')).toBe(INVALID);
  });
});

/** Mutates one digit of a written number, keeping its punctuation. */
function mutated(next: (below: number) => number, written: string): string {
  const at = next(written.length);
  return /\d/.test(written[at]!) ? `${written.slice(0, at)}${next(10)}${written.slice(at + 1)}` : written;
}

/** Every country's example number as people write it: nationally, internationally, with and without prefixes. */
function writtenSample(): [value: string, country: string][] {
  const next = random(20261125);
  const sample: [string, string][] = [];
  for (const country of getCountries()) {
    const example = getExampleNumber(country, examples);
    if (!example) continue;
    const code = getCountryCallingCode(country);
    const national = example.formatNational();
    const ways = [
      national,
      national.replace(/\s/g, '-'),
      national.replace(/\D/g, ''),
      example.nationalNumber,
      `0${example.nationalNumber}`,
      `8${example.nationalNumber}`,
      `00${code}${example.nationalNumber}`,
      `${code}${example.nationalNumber}`,
      example.formatInternational(),
      example.formatInternational().replace(/\s/g, '-'),
      `(${national.slice(0, 3)}) ${national.slice(3)}`,
    ];
    for (const way of ways) {
      sample.push([way, country]);
      for (let round = 0; round < 6; round++) sample.push([mutated(next, way), country]);
      sample.push([way.slice(0, -1), country], [`${way}${next(10)}`, country]);
    }
  }
  return sample;
}

describe('the fast path for written numbers', () => {
  it('agrees with libphonenumber on national and formatted numbers of every country', () => {
    const sample = writtenSample();
    let answered = 0;
    let national = 0;
    for (const [value, country] of sample) {
      const fast = fastPhone(value, country);
      if (fast === undefined) continue;
      answered++;
      if (!value.startsWith('+')) national++;
      expect([value, country, fast]).toEqual([value, country, normalisePhone(value, country)]);
    }
    expect(answered).toBeGreaterThan(sample.length * 0.3);
    expect(national).toBeGreaterThan(1000);
  });

  it('reads the national and formatted numbers of a Ukrainian list', () => {
    expect(fastPhone('050 123 45 67', 'UA')).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(fastPhone('(050) 123-45-67', 'UA')).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(fastPhone('+380 50 123 45 67', 'UA')).toEqual({ e164: '+380501234567', country: 'UA' });
    expect(fastPhone('0501234567', null)).toBeUndefined();
    expect(fastPhone('00380501234567', 'UA')).toBeUndefined();
    expect(fastPhone('8 916 123 45 67', 'RU')).toBeUndefined();
  });
});
