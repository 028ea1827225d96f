import { describe, expect, it } from 'vitest';
import { SeenKeys } from '../../src/contacts/import/seen-keys.js';

const email = (i: number) => `user${i}@example.com`;
const phone = (i: number) => `+38050${String(i).padStart(7, '0')}`;

describe('the keys an import has met', () => {
  it('reports every row sharing an e-mail or a phone with an earlier row, and few others', () => {
    const keys = new SeenKeys();
    let reportedNew = 0;
    for (let i = 0; i < 300_000; i++) if (keys.add(email(i), phone(i))) reportedNew++;
    // A 32-bit hash may collide: such a row only takes the slower way into the list.
    expect(reportedNew).toBeLessThan(300);
    for (let i = 0; i < 300_000; i += 7) {
      expect(keys.add(email(i), null)).toBe(true);
      expect(keys.add(null, phone(i))).toBe(true);
      expect(keys.add(`other${i}@example.com`, phone(i))).toBe(true);
    }
  });

  it('keeps e-mails and phones apart, and a row with neither repeats nothing', () => {
    const keys = new SeenKeys();
    expect(keys.add('+380501234567', null)).toBe(false);
    expect(keys.add(null, '+380501234567')).toBe(false);
    expect(keys.add(null, null)).toBe(false);
  });

  it('reports every row once it is full, rather than miss a repeat', () => {
    const keys = new SeenKeys();
    // Its 2^23 slots take 70% of that many keys.
    for (let i = 0; i < 5_900_000; i++) keys.add(email(i), null);
    expect(keys.add('never-seen@example.com', null)).toBe(true);
    expect(keys.add(null, '+380999999999')).toBe(true);
  }, 60_000);
});
