/** Builds a dispatcher over a test app's database, and ledger shortcuts for engine tests. */
import type { MessageStatus } from '@herald/shared';
import { payloadContent } from '../../src/engine/content.js';
import { Dispatcher, type DispatcherOptions } from '../../src/engine/dispatcher.js';
import { periodsOf } from '../../src/engine/limits.js';
import { insertMessages, type NewMessage } from '../../src/messages/ledger.js';
import type { TestApp } from '../helpers/app.js';

/** An e-mail campaign row in a state, without list or template: the engine sends the messages it is given. */
export async function emailCampaign(t: TestApp, accountId: number, state: string): Promise<number> {
  const now = Date.now();
  const row = await t.database.db
    .insertInto('campaigns')
    .values({ account_id: accountId, name: state, channel: 'EMAIL', state, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export function dispatcherFor(
  t: TestApp,
  options: Partial<
    Pick<DispatcherOptions, 'owner' | 'batchSize' | 'sendChunk' | 'leaseMs' | 'pollMs' | 'onDrained' | 'pool' | 'content'>
  > = {},
): Dispatcher {
  return new Dispatcher({
    db: t.database.db,
    dialect: t.database.dialect,
    pool: t.app.channels,
    content: payloadContent,
    owner: 'test-worker',
    batchSize: 50,
    leaseMs: 60_000,
    ...options,
  });
}

export async function accountIdOf(t: TestApp, email: string): Promise<number> {
  const row = await t.database.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return Number(row.id);
}

/** `count` addresses `<prefix><i>@example.com`. */
export function addresses(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com`);
}

export function emails(accountId: number, recipients: string[], over: Partial<NewMessage> = {}): NewMessage[] {
  return recipients.map((to, index) => ({
    accountId,
    campaignId: null,
    lane: 0,
    channel: 'EMAIL',
    recipient: to,
    payload: JSON.stringify({ subject: `Hello ${index}`, text: `Body ${index}`, html: `<p>Body ${index}</p>` }),
    ...over,
  }));
}

export async function drain(dispatcher: Dispatcher, rounds = 50): Promise<void> {
  for (let i = 0; i < rounds; i++) if ((await dispatcher.runOnce()) === 0) return;
}

export async function statusCounts(t: TestApp, accountId: number): Promise<Record<string, number>> {
  const rows = await t.database.db
    .selectFrom('messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

/** The rollup's view of the same counts: they must always agree with a direct count. */
export async function rollupCounts(t: TestApp, accountId: number): Promise<Record<string, number>> {
  const rows = await t.database.db
    .selectFrom('message_rollup')
    .select(['status', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('account_id', '=', accountId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.filter((row) => Number(row.n) !== 0).map((row) => [row.status, Number(row.n)]));
}

export async function insert(t: TestApp, messages: NewMessage[]): Promise<number[]> {
  return insertMessages(t.database.db, messages);
}

export type { MessageStatus };

/** What a config's day counter holds today. */
export async function usedToday(t: TestApp, configId: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('config_usage')
    .select('count')
    .where('config_id', '=', configId)
    .where('period', '=', periodsOf(Date.now()).day)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
