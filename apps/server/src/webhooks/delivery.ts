/**
 * The delivery worker: claims due outbox rows with a lease (like the engine's queue), POSTs each event to
 * its account's URL with a timeout, and retries non-2xx answers and timeouts with exponential backoff until
 * it gives up. It runs beside the sending engine, never inside it, so a slow receiver never holds up sending.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import { decryptSecret } from '../lib/crypto.js';
import { internalAddressOf } from '../lib/private-address.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.js';

export const MAX_DELIVERY_ATTEMPTS = 8;
/** Idempotency answers are kept this long; the worker clears older ones as it goes. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long the delivery log keeps finished events. */
export const DELIVERY_LOG_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;

export interface DeliveryOptions {
  db: Db;
  dialect: Dialect;
  secretKey: Buffer;
  log?: FastifyBaseLogger;
  batchSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  timeoutMs?: number;
  /** First retry delay; each next one doubles, capped at an hour. */
  retryBaseMs?: number;
  pollMs?: number;
  leaseMs?: number;
  /** Let webhooks reach loopback and private networks (WEBHOOK_PRIVATE_TARGETS=1: receivers on the same network). */
  allowPrivateTargets?: boolean;
}

export interface DeliveryRow {
  id: number;
  account_id: number;
  type: string;
  message_id: number | null;
  status: string | null;
  previous_status: string | null;
  detail: string | null;
  at: number;
  attempts: number;
}

export interface DeliveryOutcome {
  ok: boolean;
  responseCode: number | null;
  error: string | null;
}

/** The event body a receiver gets; message events carry the message's channel and recipient. */
export function eventBody(row: DeliveryRow, message: { channel: string; recipient: string } | undefined): string {
  if (row.type !== 'message.status') return JSON.stringify({ type: row.type, at: new Date(Number(row.at)).toISOString() });
  return JSON.stringify({
    type: 'message.status',
    messageId: Number(row.message_id),
    status: row.status,
    previousStatus: row.previous_status,
    channel: (message?.channel ?? '').toLowerCase(),
    to: message?.recipient ?? '',
    at: new Date(Number(row.at)).toISOString(),
    detail: row.detail,
  });
}

/** POSTs one signed event; any 2xx is success, anything else (or no answer in time) is a failure to retry. */
async function postEvent(
  url: string,
  secret: string,
  eventId: number,
  body: string,
  timeoutMs: number,
): Promise<DeliveryOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Herald-Webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(secret, body),
        [EVENT_ID_HEADER]: String(eventId),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, responseCode: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const err = error as Error;
    const reason =
      err.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (err.cause as Error | undefined)?.message;
    return { ok: false, responseCode: null, error: reason ?? err.message };
  }
}

export class WebhookDelivery {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private readonly batchSize: number;
  private readonly concurrency: number;
  readonly timeoutMs: number;
  private readonly retryBaseMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(private readonly options: DeliveryOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 10;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retryBaseMs = options.retryBaseMs ?? 10_000;
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? Math.max(60_000, this.timeoutMs * 3);
  }

  /**
   * POSTs one signed event to a receiver; one inside the server's own networks is refused (for good: `refused`) unless
   * allowed, checked on every delivery so a name that later resolves inside is caught too.
   */
  async post(url: string, secret: string, eventId: number, body: string): Promise<DeliveryOutcome & { refused?: true }> {
    if (!this.options.allowPrivateTargets) {
      const internal = await internalAddressOf(url).catch(() => null);
      if (internal !== null) {
        const error = `refused: ${internal} is inside the server's own networks (WEBHOOK_PRIVATE_TARGETS=1 allows it)`;
        return { ok: false, responseCode: null, error, refused: true };
      }
    }
    return postEvent(url, secret, eventId, body, this.timeoutMs);
  }

  /** 10 s, 20 s, 40 s … capped at an hour. */
  retryDelay(attempts: number): number {
    return Math.min(this.retryBaseMs * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loopDone;
  }

  private async loop(): Promise<void> {
    let lastPurge = 0;
    while (this.running) {
      try {
        if (Date.now() - lastPurge > PURGE_EVERY_MS) {
          lastPurge = Date.now();
          await this.purge(lastPurge);
        }
        if ((await this.runOnce()) === 0) await this.sleep();
      } catch (error) {
        this.options.log?.error({ err: error }, 'webhook delivery round failed; its leases will run out');
        await this.sleep();
      }
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, this.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  /**
   * Drops idempotency answers past their day and finished deliveries past the log's 30 days. Rows are written
   * in time order, so the old ones are the lowest ids: found by walking the key from the start, never a scan.
   */
  async purge(now = Date.now()): Promise<void> {
    const { db } = this.options;
    await db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', now - IDEMPOTENCY_TTL_MS)
      .execute();
    const firstKept = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('at', '>=', now - DELIVERY_LOG_TTL_MS)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    let query = db.deleteFrom('webhook_deliveries').where('state', '!=', 'pending');
    if (firstKept) query = query.where('id', '<', Number(firstKept.id));
    else query = query.where('at', '<', now - DELIVERY_LOG_TTL_MS);
    await query.execute();
  }

  /** Claims due events and delivers them; answers how many it claimed. */
  async runOnce(now = Date.now()): Promise<number> {
    const rows = await this.claim(now);
    if (rows.length === 0) return 0;
    const { db } = this.options;
    const accountIds = [...new Set(rows.map((row) => row.account_id))];
    const hooks = await db.selectFrom('webhooks').selectAll().where('account_id', 'in', accountIds).execute();
    const hookByAccount = new Map(hooks.map((hook) => [Number(hook.account_id), hook]));
    const messageIds = rows.flatMap((row) => (row.message_id === null ? [] : [row.message_id]));
    const messages =
      messageIds.length === 0
        ? []
        : await db.selectFrom('messages').select(['id', 'channel', 'recipient']).where('id', 'in', messageIds).execute();
    const messageById = new Map(messages.map((message) => [Number(message.id), message]));

    // One message's events go out one after another, in the order they happened; messages go in parallel.
    const byMessage = new Map<string, DeliveryRow[]>();
    for (const row of rows) {
      const key = row.message_id === null ? `event:${row.id}` : `message:${row.message_id}`;
      byMessage.set(key, [...(byMessage.get(key) ?? []), row]);
    }
    const queues = [...byMessage.values()].map((queue) => queue.sort((a, b) => a.id - b.id));
    let next = 0;
    const work = async () => {
      while (next < queues.length) {
        const queue = queues[next++]!;
        for (const [index, row] of queue.entries()) {
          if (await this.deliver(row, hookByAccount, messageById)) continue;
          // An event to be retried holds back the message's later ones: they go after it.
          await this.release(queue.slice(index + 1));
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queues.length) }, work));
    return rows.length;
  }

  /** Delivers one event; answers false when it is to be retried. */
  private async deliver(
    row: DeliveryRow,
    hookByAccount: Map<number, { url: string; secret: string; enabled: number }>,
    messageById: Map<number, { channel: string; recipient: string }>,
  ): Promise<boolean> {
    const hook = hookByAccount.get(row.account_id);
    const live = hook !== undefined && hook.enabled === 1;
    const outcome: DeliveryOutcome & { refused?: true } = live
      ? await this.post(
          hook.url,
          decryptSecret(hook.secret, this.options.secretKey),
          row.id,
          eventBody(row, row.message_id === null ? undefined : messageById.get(row.message_id)),
        )
      : { ok: false, responseCode: null, error: 'the webhook was removed or disabled' };
    const state = await this.record(row, outcome, Date.now(), live && !outcome.refused);
    return state !== 'pending';
  }

  /** Gives claimed events back unattempted. */
  private async release(rows: DeliveryRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.options.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: null })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  }

  /** Writes one attempt's outcome: delivered, retried later, or given up. */
  async record(
    row: DeliveryRow,
    outcome: DeliveryOutcome,
    now: number,
    retryable = true,
  ): Promise<'delivered' | 'failed' | 'pending'> {
    const attempts = row.attempts + 1;
    const givesUp = !outcome.ok && (!retryable || attempts >= MAX_DELIVERY_ATTEMPTS);
    const state = outcome.ok ? 'delivered' : givesUp ? 'failed' : 'pending';
    await this.options.db
      .updateTable('webhook_deliveries')
      .set({
        state,
        attempts,
        response_code: outcome.responseCode,
        last_error: outcome.error,
        lease_until: null,
        next_attempt_at: outcome.ok || givesUp ? now : now + this.retryDelay(attempts),
        delivered_at: outcome.ok ? now : null,
      })
      .where('id', '=', row.id)
      .execute();
    return state;
  }

  private async claim(now: number): Promise<DeliveryRow[]> {
    const { db, dialect } = this.options;
    return db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('webhook_deliveries as d')
        .select(['id', 'account_id', 'type', 'message_id', 'status', 'previous_status', 'detail', 'at', 'attempts'])
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        // One message's events in order: none goes while an earlier one waits for its retry or is out with another
        // worker (an earlier one due now is claimed in this round, before it).
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as earlier')
                .select('earlier.id')
                .whereRef('earlier.message_id', '=', 'd.message_id')
                // A literal, as the partial index states it: SQLite uses the index only then.
                .where(sql<boolean>`earlier.state = 'pending'`)
                .whereRef('earlier.id', '<', 'd.id')
                .where((inner) =>
                  inner.or([inner('earlier.next_attempt_at', '>', now), inner('earlier.lease_until', '>=', now)]),
                ),
            ),
          ),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(this.batchSize);
      if (dialect === 'postgres') query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable('webhook_deliveries')
        .set({ lease_until: now + this.leaseMs })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      return rows.map((row) => ({
        ...row,
        id: Number(row.id),
        account_id: Number(row.account_id),
        message_id: row.message_id === null ? null : Number(row.message_id),
        at: Number(row.at),
        attempts: Number(row.attempts),
      }));
    });
  }
}
