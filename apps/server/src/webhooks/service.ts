/** The account's status webhook: URL, signing secret (encrypted at rest, shown once), test event, delivery log. */
import { isHttpUrl } from '@herald/shared';
import type { Db } from '../db/database.js';
import { AppError, assertFields } from '../http/errors.js';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { type DeliveryRow, eventBody, type WebhookDelivery } from './delivery.js';
import { newWebhookSecret } from './signature.js';

export interface WebhooksDeps {
  db: Db;
  secretKey: Buffer;
  delivery: WebhookDelivery;
}

type WebhookRow = NonNullable<Awaited<ReturnType<typeof findWebhook>>>;

function findWebhook(db: Db, accountId: number) {
  return db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

function answer(row: WebhookRow | undefined) {
  return {
    url: row?.url ?? null,
    enabled: row ? row.enabled === 1 : false,
    events: (row?.events ?? 'api') as 'api' | 'all',
    createdAt: row ? Number(row.created_at) : null,
    updatedAt: row ? Number(row.updated_at) : null,
  };
}

export async function getWebhook(db: Db, accountId: number) {
  return answer(await findWebhook(db, accountId));
}

/** Saves the URL and switches; the first save creates the secret and answers it, the only time it is shown. */
export async function saveWebhook(
  { db, secretKey }: WebhooksDeps,
  accountId: number,
  input: { url: string; enabled: boolean; events?: 'api' | 'all' | undefined },
) {
  const url = input.url.trim();
  assertFields({ url: !url ? { key: 'validation.mandatory' } : isHttpUrl(url) ? null : { key: 'validation.invalidUrl' } });
  const now = Date.now();
  const existing = await findWebhook(db, accountId);
  if (existing) {
    await db
      .updateTable('webhooks')
      .set({ url, enabled: input.enabled ? 1 : 0, events: input.events ?? existing.events, updated_at: now })
      .where('account_id', '=', accountId)
      .execute();
    return answer(await findWebhook(db, accountId));
  }
  const secret = newWebhookSecret();
  await db
    .insertInto('webhooks')
    .values({
      account_id: accountId,
      url,
      secret: encryptSecret(secret, secretKey),
      enabled: input.enabled ? 1 : 0,
      events: input.events ?? 'api',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { ...answer(await findWebhook(db, accountId)), secret };
}

export async function deleteWebhook(db: Db, accountId: number): Promise<void> {
  await db.deleteFrom('webhooks').where('account_id', '=', accountId).execute();
}

/** A new secret replaces the old one at once; receivers must switch to it. */
export async function rotateSecret({ db, secretKey }: WebhooksDeps, accountId: number) {
  if (!(await findWebhook(db, accountId))) throw new AppError(409, 'webhooks.notConfigured');
  const secret = newWebhookSecret();
  await db
    .updateTable('webhooks')
    .set({ secret: encryptSecret(secret, secretKey), updated_at: Date.now() })
    .where('account_id', '=', accountId)
    .execute();
  return { secret };
}

/** Sends a webhook.test event now, while the user waits, and logs it like any other delivery. */
export async function sendTestEvent({ db, secretKey, delivery }: WebhooksDeps, accountId: number) {
  const hook = await findWebhook(db, accountId);
  if (!hook) throw new AppError(409, 'webhooks.notConfigured');
  const now = Date.now();
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values({
      account_id: accountId,
      type: 'webhook.test',
      message_id: null,
      status: null,
      previous_status: null,
      detail: null,
      at: now,
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      // Leased by this request, so the worker does not send it a second time meanwhile.
      lease_until: now + delivery.timeoutMs * 3,
      response_code: null,
      last_error: null,
      delivered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row: DeliveryRow = {
    id: Number(inserted.id),
    account_id: accountId,
    type: 'webhook.test',
    message_id: null,
    status: null,
    previous_status: null,
    detail: null,
    at: now,
    attempts: 0,
  };
  const outcome = await delivery.post(hook.url, decryptSecret(hook.secret, secretKey), row.id, eventBody(row, undefined));
  // A test is not retried: the user sees its outcome at once and can press the button again.
  await delivery.record(row, outcome, Date.now(), false);
  return (await listDeliveries(db, accountId, { page: 1, size: 1 })).items[0]!;
}

export async function listDeliveries(
  db: Db,
  accountId: number,
  query: { state?: 'pending' | 'delivered' | 'failed' | undefined; page: number; size: number },
) {
  let base = db.selectFrom('webhook_deliveries').where('account_id', '=', accountId);
  if (query.state) base = base.where('state', '=', query.state);
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .execute();
  return {
    total: Number(total.n),
    items: rows.map((row) => ({
      id: Number(row.id),
      type: row.type,
      messageId: row.message_id === null ? null : Number(row.message_id),
      status: row.status,
      previousStatus: row.previous_status,
      state: row.state,
      attempts: Number(row.attempts),
      responseCode: row.response_code === null ? null : Number(row.response_code),
      lastError: row.last_error,
      at: Number(row.at),
      nextAttemptAt: row.state === 'pending' ? Number(row.next_attempt_at) : null,
      deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    })),
  };
}
