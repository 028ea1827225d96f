/**
 * Scale mode's queue: BullMQ on Redis carries work, the ledger stays the truth. The active scheduler leases due
 * messages in the database exactly as the embedded queue does, under a lease owner naming one job, and adds that
 * job (the batch's ids; the priority lane first). A worker takes a job, renews the lease of the messages still
 * processing under that job's name, and sends them through the dispatcher. A job delivered again after its worker
 * stalled finds the messages already written as sent gone from that set; a job lost with Redis leaves leases that
 * run out, and those messages are leased and queued again. The API's messages have a queue and a consumer of their
 * own in every process, so a transactional message never waits behind campaign jobs, neither in Redis nor in a
 * worker's busy job slots.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { MessageStatus } from '@herald/shared';
import { type Job, Queue, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import type { Dispatcher } from '../engine/dispatcher.js';
import { type ClaimedMessage, DbQueue } from '../engine/queue.js';

export const QUEUE_NAME = 'dispatch';
/** The API's messages (no campaign): fed before campaigns' and consumed by workers of their own. */
export const API_QUEUE_NAME = 'dispatch-api';
/** API jobs one process sends at once, beside the campaign jobs. */
const API_CONCURRENCY = 2;

export interface DispatchJob {
  ids: number[];
  /** The lease owner the scheduler wrote on these messages for this job alone. */
  owner: string;
}

export interface BullDispatchOptions {
  db: Db;
  /** The connection BullMQ's queue commands use (maxRetriesPerRequest: null). */
  redis: Redis;
  prefix: string;
  leaseMs: number;
  batchSize?: number;
  /** Jobs waiting in Redis at most: the scheduler leases no further ahead than the workers can take in a lease. */
  maxWaitingJobs?: number;
  /** Jobs one worker process sends at once. */
  concurrency?: number;
  pollMs?: number;
  log?: FastifyBaseLogger | undefined;
}

/** BullMQ priorities: lower goes first; the API's lane 0 before campaign messages. */
function priorityOf(lane: number): number {
  return lane + 1;
}

export class BullDispatch {
  private readonly queue: Queue<DispatchJob>;
  private readonly apiQueue: Queue<DispatchJob>;
  private readonly workers: Worker<DispatchJob, { messages: number; worker: string }>[] = [];
  private feeding: Promise<void> | undefined;
  private feederRunning = false;
  private wake: (() => void) | undefined;
  private readonly batchSize: number;
  private readonly maxWaitingJobs: number;
  private readonly pollMs: number;
  private jobSequence = 0;
  /** Names this scheduler's jobs: BullMQ job ids, and lease owners operators can read in the ledger. */
  private readonly jobBase = `${process.pid}-${randomBytes(4).toString('hex')}`;

  constructor(private readonly options: BullDispatchOptions) {
    this.batchSize = options.batchSize ?? 200;
    this.maxWaitingJobs = options.maxWaitingJobs ?? 16;
    this.pollMs = options.pollMs ?? 250;
    this.queue = new Queue<DispatchJob>(QUEUE_NAME, { connection: options.redis, prefix: options.prefix });
    this.apiQueue = new Queue<DispatchJob>(API_QUEUE_NAME, { connection: options.redis, prefix: options.prefix });
    for (const queue of [this.queue, this.apiQueue]) {
      queue.on('error', (error) => options.log?.error({ err: error }, 'dispatch queue error'));
    }
  }

  /** Runs the scheduler's feeding loop while `active()` says this process is the scheduler. */
  startFeeding(active: () => boolean): void {
    if (this.feederRunning) return;
    this.feederRunning = true;
    this.feeding = (async () => {
      while (this.feederRunning) {
        let fed = 0;
        if (active()) {
          try {
            fed = await this.feedOnce();
          } catch (error) {
            this.options.log?.error({ err: error }, 'feeding the dispatch queue failed; its leases will run out');
          }
        }
        if (fed === 0) await this.sleep();
      }
    })();
  }

  /** New work arrived: feed now instead of at the next poll. */
  notify(): void {
    this.wake?.();
  }

  /**
   * Leases due messages into jobs until the queue holds `maxWaitingJobs`; answers how many messages it queued.
   * Each job's batch is leased under an owner of its own, so a stale job can never send a message leased again since.
   */
  async feedOnce(now = Date.now()): Promise<number> {
    // The API's first, whatever campaign jobs wait: a full campaign queue must not hold them back.
    return (await this.feed(this.apiQueue, true, now)) + (await this.feed(this.queue, false, now));
  }

  private async feed(queue: Queue<DispatchJob>, apiOnly: boolean, now: number): Promise<number> {
    let queued = 0;
    let waiting = await queue.count();
    while (waiting < this.maxWaitingJobs) {
      this.jobSequence += 1;
      const jobId = `${this.jobBase}-${this.jobSequence}`;
      const owner = `bullmq:${hostname()}:${jobId}`;
      const claimed = await new DbQueue({
        db: this.options.db,
        dialect: 'postgres',
        owner,
        leaseMs: this.options.leaseMs,
      }).claim(this.batchSize, now, apiOnly);
      if (claimed.length === 0) break;
      const lanes = new Map<number, number[]>();
      for (const message of claimed) {
        const ids = lanes.get(message.lane);
        if (ids) ids.push(message.id);
        else lanes.set(message.lane, [message.id]);
      }
      await queue.addBulk(
        [...lanes.entries()].map(([lane, ids]) => ({
          name: `lane-${lane}`,
          data: { ids, owner },
          opts: {
            jobId: `${jobId}-l${lane}`,
            priority: priorityOf(lane),
            removeOnComplete: true,
            removeOnFail: 1000,
            attempts: 1,
          },
        })),
      );
      queued += claimed.length;
      waiting += lanes.size;
      if (claimed.length < this.batchSize) break;
    }
    return queued;
  }

  /** Consumes jobs in this process (herald worker, herald serve): campaigns' and, beside them, the API's. */
  startConsuming(dispatcher: Dispatcher): void {
    const { concurrency = 4, log } = this.options;
    for (const [name, slots] of [
      [QUEUE_NAME, concurrency],
      [API_QUEUE_NAME, API_CONCURRENCY],
    ] as const) {
      const worker = new Worker<DispatchJob, { messages: number; worker: string }>(name, (job) => this.consume(dispatcher, job), {
        connection: this.options.redis,
        prefix: this.options.prefix,
        concurrency: slots,
        // A worker killed mid-job has it taken over by another within ~15 s; the ledger lease is the last resort.
        lockDuration: 10_000,
        stalledInterval: 5_000,
        maxStalledCount: 5,
      });
      worker.on('error', (error) => log?.error({ err: error }, 'dispatch worker error'));
      worker.on('failed', (job, error) =>
        log?.error({ err: error, jobId: job?.id }, 'dispatch job failed; its leases will run out and the messages return'),
      );
      this.workers.push(worker);
    }
  }

  /**
   * Sends the messages of a job still leased under its name, after renewing their lease for this worker; answers
   * how many it sent and which process did (the job's return value, for operators watching the queue).
   */
  private async consume(dispatcher: Dispatcher, job: Job<DispatchJob>): Promise<{ messages: number; worker: string }> {
    const now = Date.now();
    const rows = await this.options.db
      .updateTable('messages')
      .set({ lease_until: now + this.options.leaseMs })
      .where('id', 'in', job.data.ids)
      .where('status', '=', 'processing')
      .where('lease_owner', '=', job.data.owner)
      .returningAll()
      .execute();
    const batch = rows
      .map(
        (row): ClaimedMessage => ({
          id: Number(row.id),
          accountId: Number(row.account_id),
          campaignId: row.campaign_id === null ? null : Number(row.campaign_id),
          channel: row.channel,
          createdAt: Number(row.created_at),
          status: row.status as MessageStatus,
          configId: row.config_id === null ? null : Number(row.config_id),
          lane: Number(row.lane),
          recipient: row.recipient,
          contactId: row.contact_id === null ? null : Number(row.contact_id),
          templateId: row.template_id === null ? null : Number(row.template_id),
          payload: row.payload,
          routeGroupId: row.route_group_id === null ? null : Number(row.route_group_id),
          routeConfigId: row.route_config_id === null ? null : Number(row.route_config_id),
          attempts: Number(row.attempts),
          locale: row.locale,
          smsPartsSent: row.sms_parts_sent,
        }),
      )
      .sort((a, b) => a.id - b.id);
    await dispatcher.processClaimed(batch);
    return { messages: batch.length, worker: `${hostname()}:${process.pid}` };
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

  async close(): Promise<void> {
    this.feederRunning = false;
    this.wake?.();
    await this.feeding;
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all([this.queue.close(), this.apiQueue.close()]);
  }
}
