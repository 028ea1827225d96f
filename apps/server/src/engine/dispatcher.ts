/**
 * The sending loop: claim a batch, resolve its content, route each message through its configs in
 * failover order (filters, limits, health), send, and write every outcome through the ledger.
 * A message is `sent` only after its provider accepted it.
 */
import { SMS_MAX_PARTS, smsPartsOverLimit } from '@herald/shared';
import { detail } from '@herald/shared/message-details';
import type { DeliveryReport, OutgoingMessage, SendResult, SmsPartsSent } from '../channels/types.js';
import { type Db, type Dialect, inIds } from '../db/database.js';
import { GroupCommit } from '../lib/group-commit.js';
import { applyTransitions, type LedgerMessage, type Transition } from '../messages/ledger.js';
import type { ChannelPool } from '../providers/channel-pool.js';
import type { ContentResolver, FallbackRoute } from './content.js';
import { ConfigHealth } from './health.js';
import { handOver, LIMIT_WAIT_DETAILS, nextPeriodStart, reclaimHolds, release, renewHolds, reserve } from './limits.js';
import { takePace } from './pace.js';
import { type ClaimedMessage, DbQueue } from './queue.js';
import { RouteBook, type RouteConfig } from './routing.js';
import type { EngineThreads, ThreadsLog } from './threads.js';

export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60 * 1000;
/** A message waiting for its configs' circuit breakers is not due again sooner than this. */
const BREAKER_RETRY_MIN_MS = 1000;

/** The present moment of a batch that began at `batchStart` (tests start one later than the clock): backoffs and breakers count from it. */
const timeInBatch = (batchStart: number) => Math.max(batchStart, Date.now());

/** What a provider already took of the message's long SMS, for the transition that sends it back to waiting. */
function partsSentOf(item: Routed): Pick<Transition, 'smsPartsSent'> {
  const partsSent = item.content && 'partsSent' in item.content ? item.content.partsSent : undefined;
  return partsSent ? { smsPartsSent: JSON.stringify(partsSent) } : {};
}

/** 30 s, 1 min, 2 min … capped at an hour. */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

export interface DispatcherOptions {
  db: Db;
  dialect: Dialect;
  pool: ChannelPool;
  content: ContentResolver;
  owner: string;
  batchSize?: number;
  /** Batches in flight at once: providers are kept busy while another batch's statuses are written. */
  concurrency?: number;
  /** Messages handed to a provider per send call; a crash can send twice two chunks per batch in flight. */
  sendChunk?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Single-process installs (SQLite) hand back every lease at start instead of waiting for them to run out. */
  recoverLeasesOnStart?: boolean;
  /**
   * Waits until a config's rate shared by every sender allows `count` more sends: by default its schedule in the
   * database (engine/pace.ts); scale mode's Redis token bucket instead.
   */
  throttle?: (config: RouteConfig, count: number) => Promise<void>;
  /** Threads that run the claiming loops instead of this one (herald serve on SQLite); receipts stay here. */
  threads?: EngineThreads;
  /** A claiming loop that sent a batch found nothing more to send: a campaign may have just finished. */
  onDrained?: () => void;
  log?: ThreadsLog;
}

interface Routed {
  message: ClaimedMessage;
  /** Resolved just before the message's chunk is sent, so only the chunks in flight hold rendered content. */
  content: OutgoingMessage | null;
  candidates: RouteConfig[];
  cursor: number;
  /** The last temporary failure, and the config it came from (the message's history names it). */
  transientError: { error: string; configId: number } | null;
  limitSpent: 'day' | 'month' | null;
  /** Configs that failed it before the one it is at (failover), for its history. */
  passedOver?: { configId: number; detail: string }[];
  /** Set on the pass through the other channel: where it goes, and what the message's own channel ended in. */
  fallback?: { channel: string; recipient: string; outcome: Transition };
}

const RECEIPT_RETRIES = 30;
/** Receipts applied in one go at most, and how long the first of them waits for others. */
const RECEIPT_BATCH = 500;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_SEND_CHUNK = 50;
/**
 * What a crash of a dispatcher with the default settings can send twice: per batch in flight (the bulk loops' and the
 * API loop's), the chunk at the provider and the one whose statuses are being written.
 */
export const IN_FLIGHT_WINDOW = (DEFAULT_CONCURRENCY + 1) * 2 * DEFAULT_SEND_CHUNK;
const RECEIPT_GATHER_MS = 50;
/** Transitions per group transaction of the send chunks' statuses. */
const MAX_STATUS_GROUP = 1000;
/**
 * Chunk statuses wait this long for those of other batches in flight, to share a transaction: a commit costs more
 * than the wait, which a batch spends sending its next chunk anyway (it awaits a chunk's write before the next one's).
 */
const STATUS_GATHER = { items: 200, ms: 10 };
/**
 * Pause and cancel take effect within a second also at a provider's slow pace: a chunk holds at most this long of its
 * sends, and a batch still sending this long after its claim (or its last look) checks that its campaigns still send.
 */
const STOP_CHECK_MS = 250;
/** A write that must land (untilWritten) is tried again after this long, doubling up to the max. */
const WRITE_RETRY_MIN_MS = 100;
const WRITE_RETRY_MAX_MS = 2000;

interface PendingReceipt {
  configId: number;
  report: DeliveryReport;
  retriesLeft: number;
}

export class Dispatcher {
  readonly queue: DbQueue;
  readonly health = new ConfigHealth();
  private running = false;
  private loops: Promise<void>[] = [];
  private leaseTimer: NodeJS.Timeout | undefined;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly sendChunk: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /** Wakes the sleeping bulk loop, and the API loop, when new work arrives. */
  private readonly wakers: Record<'bulk' | 'api', (() => void) | undefined> = { bulk: undefined, api: undefined };
  /**
   * Messages of the batches being sent: their leases are renewed until written, so a batch slower than a lease (a
   * rate-limited config) is not handed back and sent a second time while this process is still sending it.
   */
  private readonly inFlight = new Set<number>();
  private receipts: PendingReceipt[] = [];
  private receiptTimer: NodeJS.Timeout | undefined;
  /** The statuses of send chunks that finish together (from the batches in flight) are written in one transaction. */
  private readonly chunkStatuses: GroupCommit<Transition, boolean>;
  private readonly throttle: (config: RouteConfig, count: number) => Promise<void>;
  /** Messages per second each config's provider took over its last send calls, which size the next ones. */
  private readonly sendRates = new Map<number, number>();

  constructor(private readonly options: DispatcherOptions) {
    this.batchSize = options.batchSize ?? 200;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.sendChunk = options.sendChunk ?? DEFAULT_SEND_CHUNK;
    this.pollMs = options.pollMs ?? 250;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.queue = new DbQueue({ db: options.db, dialect: options.dialect, owner: options.owner, leaseMs: this.leaseMs });
    this.throttle = options.throttle ?? ((config, count) => takePace(options.db, config, count));
    this.chunkStatuses = new GroupCommit(
      async (transitions) => {
        const moved = await this.untilWritten(() => applyTransitions(options.db, transitions), 'writing sent statuses');
        return transitions.map((transition) => moved.has(transition.message.id));
      },
      MAX_STATUS_GROUP,
      STATUS_GATHER,
    );
    options.pool.onDeliveryReport((configId, report) => this.receiveReport(configId, report, RECEIPT_RETRIES));
  }

  /**
   * Receipts arrive by the thousand a second from an SMSC: they are gathered for a moment and applied with one query
   * per config and one ledger write. A failure (a database outage, a shutdown) is logged, never left unhandled.
   */
  private receiveReport(configId: number, report: DeliveryReport, retriesLeft: number): void {
    this.receipts.push({ configId, report, retriesLeft });
    if (this.receipts.length >= RECEIPT_BATCH) this.flushReceipts();
    else this.receiptTimer ??= setTimeout(() => this.flushReceipts(), RECEIPT_GATHER_MS);
  }

  private flushReceipts(): void {
    clearTimeout(this.receiptTimer);
    this.receiptTimer = undefined;
    const receipts = this.receipts.splice(0);
    this.applyReceipts(receipts).catch((error: unknown) =>
      this.options.log?.error({ err: error, receipts: receipts.length }, 'applying delivery receipts failed'),
    );
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.options.recoverLeasesOnStart) {
      let returned = 0;
      for (let batch = -1; batch !== 0; returned += batch) batch = await this.queue.returnExpiredLeases(Date.now(), true);
      const holds = await reclaimHolds(this.options.db, Date.now(), true);
      if (returned > 0 || holds > 0) this.options.log?.info({ returned, holds }, 'handed back the leases of the previous run');
    }
    if (this.options.threads) return this.options.threads.start();
    // One loop more, kept for the API's messages: they overtake campaigns instead of waiting for a bulk batch to end.
    this.loops = [
      ...Array.from({ length: this.concurrency }, () => this.loop(false)),
      ...(this.concurrency > 0 ? [this.loop(true)] : []),
    ];
    this.leaseTimer = setInterval(
      () => {
        this.renewLeases()
          .then(() => this.queue.returnExpiredLeases())
          .then(() => reclaimHolds(this.options.db))
          .catch((error: unknown) => this.options.log?.error({ err: error }, 'renewing or returning leases failed'));
      },
      Math.min(this.leaseMs / 2, 10_000),
    );
    this.leaseTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.options.threads?.stop();
    clearInterval(this.leaseTimer);
    clearTimeout(this.receiptTimer);
    await this.applyReceipts(this.receipts.splice(0)).catch((error: unknown) =>
      this.options.log?.error({ err: error }, 'applying delivery receipts failed'),
    );
    this.wakeLoops();
    await Promise.all(this.loops);
  }

  /** New work arrived (a campaign started, an API message was persisted): stop waiting for the next poll. */
  notify(): void {
    this.options.threads?.notify();
    this.wakeLoops();
  }

  private wakeLoops(): void {
    this.wakers.bulk?.();
    this.wakers.api?.();
  }

  private async loop(apiOnly: boolean): Promise<void> {
    const name = apiOnly ? 'api' : 'bulk';
    let sent = false;
    while (this.running) {
      try {
        if ((await this.runOnce(Date.now(), apiOnly)) > 0) sent = true;
        else {
          if (sent) this.options.onDrained?.();
          sent = false;
          await this.sleep(name);
        }
      } catch (error) {
        this.options.log?.error({ err: error }, 'dispatch batch failed; its leases will run out and the messages return');
        await this.sleep(name);
      }
    }
  }

  private sleep(loop: 'bulk' | 'api'): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakers[loop] = undefined;
        resolve();
      }, this.pollMs);
      this.wakers[loop] = () => {
        clearTimeout(timer);
        this.wakers[loop] = undefined;
        resolve();
      };
    });
  }

  /** Claims and sends one batch (`apiOnly`: of the API's messages only); answers how many messages it claimed. */
  async runOnce(now = Date.now(), apiOnly = false): Promise<number> {
    const batch = await this.queue.claim(this.batchSize, now, apiOnly);
    if (batch.length > 0) await this.process(batch, now);
    return batch.length;
  }

  /**
   * Sends a batch another queue already leased in the ledger (scale mode: the message ids of a BullMQ job). It may
   * have waited in Redis since: whether its campaigns still send is looked at before its first chunk.
   */
  async processClaimed(batch: ClaimedMessage[]): Promise<void> {
    if (batch.length > 0) await this.process(batch, 0);
  }

  /** `sendingAt`: when the batch's campaigns were last known to be sending (its claim). */
  private async process(batch: ClaimedMessage[], sendingAt: number): Promise<void> {
    for (const message of batch) this.inFlight.add(message.id);
    try {
      await this.sendBatch(batch, sendingAt);
    } finally {
      for (const message of batch) this.inFlight.delete(message.id);
    }
  }

  /** Extends the leases of the messages this process is still sending (only while they are processing), and its limit holds. */
  private async renewLeases(now = Date.now()): Promise<void> {
    const ids = [...this.inFlight];
    const { db, dialect } = this.options;
    if (ids.length > 0) await renewHolds(db, this.options.owner, this.leaseMs, now);
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      await db
        .updateTable('messages')
        .set({ lease_until: now + this.leaseMs })
        .where('id', 'in', (eb) => {
          const leased = eb
            .selectFrom('messages')
            .select('id')
            .where(inIds(db, 'id', chunk))
            .where('status', '=', 'processing');
          // Rows a ledger transaction holds are leaving processing anyway; skipping them avoids a lock-order deadlock.
          return dialect === 'postgres' ? leased.forUpdate().skipLocked() : leased;
        })
        .execute();
    }
  }

  private async sendBatch(batch: ClaimedMessage[], sendingAt: number): Promise<void> {
    const { db } = this.options;
    const now = Date.now();
    const book = await RouteBook.load(
      db,
      batch.map((message) => message.accountId),
    );
    const pending: Routed[] = [];
    // Outcomes that end a message on its own channel; the other channel may still take it (fallback).
    const undeliverable: Transition[] = [];
    for (const message of batch) {
      const candidates = book.candidates(message);
      if (candidates.length === 0) {
        undeliverable.push({ message, to: 'filtered', detail: detail('details.noConfigServes') });
        continue;
      }
      pending.push({ message, content: null, candidates, cursor: 0, transientError: null, limitSpent: null });
    }
    const { exhausted, refused } = await this.route(pending, now, sendingAt);
    undeliverable.push(...refused);
    const transitions: Transition[] = [];
    for (const item of exhausted) {
      const settled = this.settleExhausted(item, timeInBatch(now));
      (settled.to === 'failed' ? undeliverable : transitions).push(settled);
    }
    transitions.push(...(await this.fallBack(undeliverable, book, now)));
    await applyTransitions(db, transitions);
  }

  /**
   * Sends each message through its candidates in failover order (health, limits, then the provider), writing
   * statuses after every chunk. Answers the messages every candidate passed on (`exhausted`) and the messages
   * a provider refused on their own channel (`refused`), whose outcome waits for a possible fallback.
   */
  private async route(
    pending: Routed[],
    now: number,
    sendingAt: number,
  ): Promise<{ exhausted: Routed[]; refused: Transition[] }> {
    const { db, dialect } = this.options;
    const exhausted: Routed[] = [];
    const refused: Transition[] = [];
    while (pending.length > 0) {
      const next: Routed[] = [];
      const advance = (item: Routed) => {
        item.cursor += 1;
        (item.cursor < item.candidates.length ? next : exhausted).push(item);
      };
      // A config that failed it: the next one is tried, and its history will say why this one did not take it.
      const passOver = (item: Routed, failure: { configId: number; detail: string }) => {
        if (item.cursor + 1 < item.candidates.length) item.passedOver = [...(item.passedOver ?? []), failure];
        advance(item);
      };
      const byConfig = new Map<number, Routed[]>();
      for (const item of pending) {
        const id = item.candidates[item.cursor]!.id;
        const items = byConfig.get(id);
        if (items) items.push(item);
        else byConfig.set(id, [item]);
      }
      await Promise.all(
        [...byConfig.entries()].map(async ([configId, items]) => {
          const config = items[0]!.candidates[items[0]!.cursor]!;
          if (!this.health.allows(configId, timeInBatch(now))) {
            items.forEach(advance);
            return;
          }
          const { granted, spent, holdId } = await reserve(db, dialect, config, items.length, now, {
            owner: this.options.owner,
            leaseMs: this.leaseMs,
          });
          const sending = items.slice(0, granted);
          for (const item of items.slice(granted)) {
            item.limitSpent = spent;
            advance(item);
          }
          if (sending.length === 0) return;
          const chunkSize = this.chunkSizeFor(config);
          let accepted = 0;
          let handed = 0;
          // Pipelined: the next chunk's content is read while this one is sent, and a chunk's statuses are written
          // while the next one is sent. A crash can resend only the chunk in flight and the one being written.
          const prepare = (start: number) => {
            const written: Transition[] = [];
            const ready = this.withContent(sending.slice(start, start + chunkSize), written).then((chunk) => ({
              chunk,
              written,
            }));
            ready.catch(() => undefined);
            return ready;
          };
          let writing: Promise<unknown> = Promise.resolve();
          try {
            let prepared = prepare(0);
            // Campaigns paused or cancelled since they were last seen sending are found on the way.
            let lookedAt = sendingAt;
            const stopped = new Set<number>();
            for (let i = 0; i < sending.length; i += chunkSize) {
              const { chunk: ready, written } = await prepared;
              if (i + chunkSize < sending.length) prepared = prepare(i + chunkSize);
              if (Date.now() - lookedAt >= STOP_CHECK_MS) {
                lookedAt = Date.now();
                await this.findStopped(ready, stopped);
              }
              const chunk = stopped.size === 0 ? ready : this.withoutStopped(ready, stopped, written, lookedAt);
              if (holdId !== null && chunk.length > 0) {
                // A reclaimed hold: this batch outlived its leases, and its messages are another sender's now.
                if (!(await this.untilWritten(() => handOver(db, holdId, chunk.length), 'handing limit slots over'))) break;
                handed += chunk.length;
              }
              const results = await this.send(config, chunk);
              for (const item of chunk) {
                const result = results.get(item.message.id) ?? {
                  id: item.message.id,
                  accepted: false,
                  transient: true,
                  error: detail('details.noAnswer'),
                };
                if (result.accepted) {
                  accepted += 1;
                  this.health.succeeded(configId);
                  written.push({
                    message: item.message,
                    to: item.fallback ? 'sent_alternative' : 'sent',
                    configId,
                    providerMessageId: result.providerMessageId ?? null,
                    detail: item.fallback ? (item.fallback.outcome.detail ?? null) : null,
                    attempts: item.message.attempts + 1,
                    ...(item.fallback ? { channel: item.fallback.channel, recipient: item.fallback.recipient } : {}),
                    ...(item.passedOver ? { passedOver: item.passedOver } : {}),
                  });
                  item.content = null;
                  continue;
                }
                // What the provider took of a long SMS is not sent again, on the next config or at the retry.
                if (result.partsSent && item.content) item.content = { ...item.content, partsSent: result.partsSent };
                // A batch can outlast minutes at a slow provider: breakers and backoffs count from the failure itself.
                if (!result.recipientFault) this.health.failed(configId, timeInBatch(now));
                const failure = { configId, detail: result.error ?? 'refused' };
                if (result.transient) {
                  item.transientError = { error: result.error ?? 'temporary failure', configId };
                  passOver(item, failure);
                  continue;
                }
                // A config refusing what is not the recipient's fault (its sender, its credentials) may be alone in
                // it: the next config is tried, and with none left a temporary failure seen on the way is retried.
                if (!result.recipientFault && (item.cursor + 1 < item.candidates.length || item.transientError !== null)) {
                  passOver(item, failure);
                  continue;
                }
                item.content = null;
                const refusal: Transition = {
                  message: item.message,
                  to: 'failed',
                  configId,
                  detail: result.error ?? 'refused',
                  attempts: item.message.attempts + 1,
                  ...(item.passedOver ? { passedOver: item.passedOver } : {}),
                };
                if (item.fallback) written.push(this.fallbackFailed(item.fallback, refusal.detail!));
                else refused.push(refusal);
              }
              await writing;
              writing = this.chunkStatuses.write(written);
              writing.catch(() => undefined);
            }
            await writing;
          } finally {
            // A batch that fails part-way (the database away) ends only once the statuses of what it sent are written:
            // its leases are renewed until then, so none of those messages is handed back and sent again.
            await writing.catch(() => undefined);
            // Every slot no provider used goes back, also when the batch fails part-way (its messages return with their leases).
            const hold = holdId === null ? undefined : { id: holdId, stillHeld: sending.length - handed };
            await this.untilWritten(
              () => release(db, configId, sending.length - accepted, now, hold),
              'giving back unused limit slots',
            );
          }
        }),
      );
      pending = next;
    }
    return { exhausted, refused };
  }

  /**
   * Writes that must land whatever it takes: the statuses of messages a provider took (given up, those messages would
   * be sent again when their leases ran out), the limit slots they did not use (given up, a day's limit would end
   * early) and a paced config's booking (given up, the batch would end and its messages wait for their leases).
   * Through a database outage the write is tried again until it lands, the batch sending nothing more meanwhile; its
   * leases are renewed as soon as the database is back, and a status write's compare-and-set keeps a retry whose
   * first try did commit from counting twice. Stopping the engine ends the retries.
   */
  private async untilWritten<R>(write: () => Promise<R>, what: string): Promise<R> {
    for (let delay = WRITE_RETRY_MIN_MS; ; delay = Math.min(delay * 2, WRITE_RETRY_MAX_MS)) {
      try {
        return await write();
      } catch (error) {
        if (!this.running) throw error;
        this.options.log?.error({ err: error, retryInMs: delay }, `${what} failed; trying again`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * Messages per send call: a quarter of a second's worth at the config's pace and at the rate its provider took the
   * last calls (a relay answering each message in 200 ms), so pause and cancel take effect within a second; never
   * fewer than the channel works on at once, or a slow provider's rate measured on small calls would shrink them to one.
   */
  private chunkSizeFor(config: RouteConfig): number {
    const share = (perSecond: number) => Math.max(1, Math.floor((perSecond * STOP_CHECK_MS) / 1000));
    const paced = config.messagesPerSecond === null ? this.sendChunk : share(config.messagesPerSecond);
    const floor = Math.min(this.options.pool.get(config.row).parallelism, paced, this.sendChunk);
    const taken = this.sendRates.get(config.id);
    return Math.max(floor, Math.min(this.sendChunk, paced, taken === undefined ? floor : share(taken)));
  }

  /**
   * Adds to `stopped` the campaigns of the chunk that were paused or cancelled since the claim. With the database away
   * nothing is known: the chunk goes, and the batch then waits for its status write (untilWritten).
   */
  private async findStopped(chunk: Routed[], stopped: Set<number>): Promise<void> {
    const campaignIds = [...new Set(chunk.map((item) => item.message.campaignId).filter((id) => id !== null))];
    if (campaignIds.length === 0) return;
    const sending = await this.options.db
      .selectFrom('campaigns')
      .select('id')
      .where('id', 'in', campaignIds)
      .where('state', '=', 'sending')
      .execute()
      .catch(() => null);
    if (sending === null) return;
    const live = new Set(sending.map((row) => Number(row.id)));
    for (const id of campaignIds) if (!live.has(id)) stopped.add(id);
  }

  /** The chunk without the messages of stopped campaigns, which go back to waiting (into `written`). */
  private withoutStopped(chunk: Routed[], stopped: Set<number>, written: Transition[], now: number): Routed[] {
    return chunk.filter((item) => {
      if (item.message.campaignId === null || !stopped.has(item.message.campaignId)) return true;
      written.push({ message: item.message, to: 'unsent', nextAttemptAt: now, ...partsSentOf(item) });
      item.content = null;
      return false;
    });
  }

  /** Resolves the content of a chunk about to be sent; a message without content fails (into `written`) and is left out. */
  private async withContent(chunk: Routed[], written: Transition[]): Promise<Routed[]> {
    const missing = chunk.filter((item) => item.content === null);
    if (missing.length === 0) return chunk;
    const resolved = await this.options.content.resolve(missing.map((item) => item.message));
    const ready: Routed[] = [];
    for (const item of chunk) {
      if (item.content === null) {
        const outcome = resolved.get(item.message.id);
        if (!outcome || 'error' in outcome) {
          // Content that cannot be built is the message's fault, not its channel's: no fallback.
          written.push({
            message: item.message,
            to: 'failed',
            detail: outcome?.error ?? detail('details.noContent'),
            attempts: item.message.attempts + 1,
          });
          continue;
        }
        item.content = outcome.message;
        if (!('subject' in outcome.message)) {
          const parts = smsPartsOverLimit(outcome.message.text);
          if (parts !== null) {
            written.push({
              message: item.message,
              to: 'failed',
              detail: detail('details.smsTooLong', { parts, max: SMS_MAX_PARTS }),
              attempts: item.message.attempts + 1,
            });
            item.content = null;
            continue;
          }
          const { smsPartsSent } = item.message;
          if (smsPartsSent) item.content = { ...outcome.message, partsSent: JSON.parse(smsPartsSent) as SmsPartsSent };
        }
      }
      ready.push(item);
    }
    return ready;
  }

  /**
   * Messages their own channel could not deliver go through the other channel when their campaign allows it and
   * the contact has an address there; answers the transitions still to write (the original outcomes of the rest).
   */
  private async fallBack(undeliverable: Transition[], book: RouteBook, now: number): Promise<Transition[]> {
    const resolver = this.options.content;
    const routes =
      undeliverable.length > 0 && resolver.fallback
        ? await resolver.fallback(undeliverable.map((outcome) => outcome.message as ClaimedMessage))
        : new Map<number, FallbackRoute>();
    const written: Transition[] = [];
    const pending: Routed[] = [];
    for (const outcome of undeliverable) {
      const route = routes.get(outcome.message.id);
      if (!route) {
        written.push(outcome);
        continue;
      }
      const message = outcome.message as ClaimedMessage;
      const fallback = { channel: route.channel, recipient: route.recipient, outcome };
      const candidates = book.candidates({
        ...message,
        channel: route.channel,
        recipient: route.recipient,
        routeGroupId: route.routeGroupId,
        routeConfigId: route.routeConfigId,
      });
      if (candidates.length === 0) {
        written.push(this.fallbackFailed(fallback, `no active configuration serves ${route.recipient}`));
        continue;
      }
      pending.push({ message, content: route.content, candidates, cursor: 0, transientError: null, limitSpent: null, fallback });
    }
    if (pending.length === 0) return written;
    const { exhausted, refused } = await this.route(pending, now, now);
    written.push(...refused);
    for (const item of exhausted) {
      const settled = this.settleExhausted(item, timeInBatch(now));
      written.push(settled.to === 'failed' ? this.fallbackFailed(item.fallback!, settled.detail ?? 'failed') : settled);
    }
    return written;
  }

  /** The message's own outcome stands, with why the other channel did not take it either. */
  private fallbackFailed(fallback: NonNullable<Routed['fallback']>, reason: string): Transition {
    const own = fallback.outcome.detail ?? fallback.outcome.to;
    return { ...fallback.outcome, detail: detail('details.fallbackFailed', { own, channel: fallback.channel, reason }) };
  }

  private async send(config: RouteConfig, items: Routed[]): Promise<Map<number, SendResult>> {
    if (items.length === 0) return new Map();
    if (config.messagesPerSecond !== null) await this.untilWritten(() => this.throttle(config, items.length), 'pacing sends');
    const started = performance.now();
    try {
      const results = await this.options.pool.get(config.row).send(items.map((item) => item.content!));
      return new Map(results.map((result) => [result.id, result]));
    } catch (error) {
      const message = (error as Error).message;
      return new Map(
        items.map((item) => [item.message.id, { id: item.message.id, accepted: false, transient: true, error: message }]),
      );
    } finally {
      this.measureSendRate(config.id, items.length, performance.now() - started);
    }
  }

  /** A config's messages per second over its send calls, smoothed over the last few. */
  private measureSendRate(configId: number, count: number, elapsedMs: number): void {
    const rate = (count * 1000) / Math.max(elapsedMs, 1);
    const before = this.sendRates.get(configId);
    this.sendRates.set(configId, before === undefined ? rate : (before + rate) / 2);
  }

  /** Every candidate was tried: retry later after a transient failure, wait for the limit, or wait out a failing provider. */
  private settleExhausted(item: Routed, now: number): Transition {
    const attempts = item.message.attempts + 1;
    // The failures on the way, less the one this outcome names itself.
    const passed = item.passedOver?.filter(
      (failure) => failure.configId !== item.transientError?.configId || failure.detail !== item.transientError.error,
    );
    const history = { ...(passed?.length ? { passedOver: passed } : {}), ...partsSentOf(item) };
    if (item.transientError !== null) {
      const { error } = item.transientError;
      // The config that failed it, on its own channel (a fallback's config is of the other channel).
      const configId = item.fallback ? undefined : item.transientError.configId;
      return attempts >= MAX_ATTEMPTS
        ? { message: item.message, to: 'failed', configId, detail: error, attempts, ...history }
        : {
            message: item.message,
            to: 'resending',
            configId,
            detail: error,
            attempts,
            nextAttemptAt: now + retryDelay(attempts),
            ...history,
          };
    }
    if (item.limitSpent !== null) {
      return {
        message: item.message,
        to: 'unsent',
        detail: LIMIT_WAIT_DETAILS[item.limitSpent],
        nextAttemptAt: nextPeriodStart(now, item.limitSpent),
        ...history,
      };
    }
    // Due again when the first of its configs' circuit breakers closes, not a whole open period after this batch.
    const reopens = Math.min(...item.candidates.map((config) => this.health.reopensAt(config.id)));
    return {
      message: item.message,
      to: 'unsent',
      detail: detail('details.allFailing'),
      nextAttemptAt: Math.max(now + BREAKER_RETRY_MIN_MS, reopens),
      ...history,
    };
  }

  /** A receipt may arrive before the sent status is written; it is retried for a while before being dropped. */
  async applyReceipt(configId: number, report: DeliveryReport, retriesLeft = RECEIPT_RETRIES): Promise<boolean> {
    return (await this.applyReceipts([{ configId, report, retriesLeft }])) > 0;
  }

  /** Applies receipts, retrying later those whose message is not known yet; answers how many messages moved. */
  private async applyReceipts(receipts: PendingReceipt[]): Promise<number> {
    const idsByConfig = new Map<number, Set<string>>();
    for (const { configId, report } of receipts) {
      const ids = idsByConfig.get(configId) ?? new Set<string>();
      ids.add(report.providerMessageId);
      idsByConfig.set(configId, ids);
    }
    const rows = new Map<string, LedgerMessage>();
    for (const [configId, ids] of idsByConfig) {
      const found = await this.options.db
        .selectFrom('messages')
        .select(['id', 'account_id', 'campaign_id', 'channel', 'created_at', 'status', 'config_id', 'provider_message_id'])
        .where('config_id', '=', configId)
        .where('provider_message_id', 'in', [...ids])
        .execute();
      for (const row of found) {
        rows.set(`${configId}:${row.provider_message_id}`, {
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: row.status as LedgerMessage['status'],
          configId: Number(row.config_id),
        });
      }
    }
    const transitions: Transition[] = [];
    for (const receipt of receipts) {
      const message = rows.get(`${receipt.configId}:${receipt.report.providerMessageId}`);
      if (message) {
        transitions.push({ message, to: receipt.report.status, detail: receipt.report.providerStatus });
        continue;
      }
      const { configId, report, retriesLeft } = receipt;
      if (retriesLeft > 0 && this.running) setTimeout(() => this.receiveReport(configId, report, retriesLeft - 1), 1000).unref();
    }
    return transitions.length > 0 ? (await applyTransitions(this.options.db, transitions)).size : 0;
  }
}
