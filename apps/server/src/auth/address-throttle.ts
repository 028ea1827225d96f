/**
 * Per client address caps on calls anyone can repeat to fill the database or the disk (sign-up, feedback uploads).
 * Counted in the log-in throttle table, so every API process sharing the database counts together.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import * as q from './queries.js';

const WINDOW_MS = 60 * 60 * 1000;

/** An IPv6 client is counted by its /64, the block one host or site is given, or it could rotate its way past the cap. */
export function addressBlock(address: string): string {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(mapped)) return mapped;
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return address;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []);
  const expanded =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${expanded
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export class AddressThrottle {
  constructor(
    private readonly db: Db,
    /** Keeps each call's count apart in the shared table. */
    private readonly name: string,
    private readonly perHour: number,
  ) {}

  /** Counts one call from this address, or refuses it with 429 and when to retry once the hour's quota is spent. */
  async take(address: string): Promise<void> {
    const key = `${this.name}|${addressBlock(address)}`;
    const now = Date.now();
    const recent = await q.countLoginFailures(this.db, key, now - WINDOW_MS);
    if (recent.count >= this.perHour) {
      const retryMs = Math.max(1000, (recent.oldest ?? now) + WINDOW_MS - now);
      throw new AppError(429, 'error.tooManyRequests', { minutes: Math.ceil(retryMs / 60_000) }, [], {
        'retry-after': String(Math.ceil(retryMs / 1000)),
      });
    }
    await q.recordLoginFailure(this.db, key, now);
  }
}
