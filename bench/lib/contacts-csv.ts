/** A generated contact file like the ones people import: e-mail, phone, name and two attributes per row. */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const FIRST_NAMES = ['Olena', 'Ivan', 'Maria', 'Petro', 'Anna', 'Taras', 'Iryna', 'Oleh', 'Sofia', 'Andrii'];
const LAST_NAMES = ['Shevchenko', 'Kovalenko', 'Bondarenko', 'Tkachenko', 'Kravchenko', 'Oliinyk', 'Melnyk'];
const DOMAINS = ['gmail.com', 'ukr.net', 'i.ua', 'outlook.com', 'example.org'];
const CITIES = ['Kyiv', 'Lviv', 'Odesa', 'Kharkiv', 'Dnipro', 'Zaporizhzhia'];
const PLANS = ['free', 'basic', 'pro'];
/** Ukrainian mobile operator codes. */
const OPERATORS = ['50', '63', '66', '67', '68', '73', '93', '95', '96', '97', '98', '99'];

/** Row i's phone; 7919 is coprime with 10^7, so the subscriber numbers of the first 10^7 rows are all different. */
function phone(i: number): string {
  const subscriber = String((i * 7919 + 1_234_567) % 10_000_000).padStart(7, '0');
  const operator = OPERATORS[i % OPERATORS.length]!;
  // One row in five is written the national way, as spreadsheets of local customers often are.
  return i % 5 === 0
    ? `0${operator} ${subscriber.slice(0, 3)} ${subscriber.slice(3, 5)} ${subscriber.slice(5)}`
    : `+380${operator}${subscriber}`;
}

export async function writeContactsCsv(filePath: string, rows: number): Promise<number> {
  const out = createWriteStream(filePath);
  let chunk = 'email,phone,name,city,plan\n';
  for (let i = 0; i < rows; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(i * 3) % LAST_NAMES.length]!;
    chunk += `${first.toLowerCase()}.${last.toLowerCase()}${i}@${DOMAINS[i % DOMAINS.length]},${phone(i)},${first} ${last},${CITIES[i % CITIES.length]},${PLANS[i % PLANS.length]}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'close');
  return out.bytesWritten;
}
