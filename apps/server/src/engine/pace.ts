/**
 * A config's messages per second shared by every sender without Redis: the engine threads of `herald serve` and
 * `herald worker` processes on PostgreSQL alone. Each channel paces its own connection at the full rate, so N senders
 * would send N times it; here each send books its share of the config's schedule in the database (GCRA: one upsert
 * of the time the schedule is booked up to) and waits for its turn, as scale/rate.ts does in Redis. There is no burst
 * beyond the chunk itself: a provider's contractual rate is a cap, and a second of burst sent up to twice it after
 * every lull. Only paced configs pay it, once per send chunk (a quarter of a second of their sends).
 */
import { sql } from 'kysely';
import { type Db, isPostgres } from '../db/database.js';
import type { RouteConfig } from './routing.js';

/** Resolves once `count` sends through the config fit its rate, counting every sender's; a config without one passes at once. */
export async function takePace(
  db: Db,
  config: Pick<RouteConfig, 'id' | 'messagesPerSecond'>,
  count: number,
  now = Date.now(),
): Promise<void> {
  if (config.messagesPerSecond === null || count <= 0) return;
  const cost = Math.ceil((count * 1_000_000) / config.messagesPerSecond);
  const nowMicros = now * 1000;
  const later = isPostgres(db) ? sql.raw('greatest') : sql.raw('max');
  const { booked } = await db
    .insertInto('config_pace')
    .values({ config_id: config.id, booked: nowMicros + cost })
    .onConflict((oc) =>
      oc.column('config_id').doUpdateSet({ booked: sql<number>`${later}(config_pace.booked, ${nowMicros}) + ${cost}` }),
    )
    .returning('booked')
    .executeTakeFirstOrThrow();
  const waitMs = (Number(booked) - cost - nowMicros) / 1000;
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(waitMs)));
}
