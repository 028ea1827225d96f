/**
 * One scheduler at a time across every process on a PostgreSQL database: a session advisory lock held on a
 * connection of its own. PostgreSQL releases it the moment the holder's connection ends (a crash, kill -9, a
 * lost network), and the other processes, retrying every second, take over.
 */
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** Waiting processes retry, and the holder checks its connection (stopping at once when it is gone), this often. */
const ROUND_MS = 1000;
/** The lock is per schema, so installs (and test schemas) sharing one database do not exclude each other. */
const LOCK_KEY_SQL = "hashtext('herald-scheduler:' || current_schema())";

export interface SchedulerLockOptions {
  databaseUrl: string;
  /** PostgreSQL schema Herald works in, when not the connection's default. */
  schema?: string | undefined;
  log?: FastifyBaseLogger | undefined;
}

export class SchedulerLock {
  private client: pg.Client | undefined;
  private holding = false;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> | undefined;
  private stopped = false;
  /** Shown in pg_stat_activity, so an operator (or a test) can see which process schedules. */
  readonly applicationName = `herald-scheduler:${hostname()}:${process.pid}`;

  constructor(private readonly options: SchedulerLockOptions) {}

  /** True while this process is the one scheduler. */
  held(): boolean {
    return this.holding;
  }

  start(): void {
    this.stopped = false;
    const round = () => {
      if (this.busy || this.stopped) return;
      this.busy = (this.holding ? this.check() : this.acquire()).finally(() => {
        this.busy = undefined;
      });
    };
    round();
    this.timer = setInterval(round, ROUND_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.busy;
    this.holding = false;
    // Ending the session releases the lock at once, so another process takes over without waiting.
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }

  private async acquire(): Promise<void> {
    try {
      if (!this.client) {
        const client = new pg.Client({
          connectionString: this.options.databaseUrl,
          application_name: this.applicationName,
          ...(this.options.schema ? { options: `-c search_path=${this.options.schema}` } : {}),
        });
        client.on('error', () => this.lose());
        client.on('end', () => this.lose());
        await client.connect();
        this.client = client;
      }
      const result = await this.client.query<{ locked: boolean }>(`select pg_try_advisory_lock(${LOCK_KEY_SQL}) as locked`);
      if (result.rows[0]?.locked && !this.stopped) {
        this.holding = true;
        this.options.log?.info({ holder: this.applicationName }, 'this process is now the active scheduler');
      }
    } catch (error) {
      this.options.log?.warn({ err: error }, 'scheduler lock: database unreachable, retrying');
      this.lose();
    }
  }

  private async check(): Promise<void> {
    try {
      await this.client?.query('select 1');
    } catch {
      this.lose();
    }
  }

  private lose(): void {
    if (this.holding) this.options.log?.warn('scheduler lock lost with its connection; another process takes over');
    this.holding = false;
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => {});
  }
}
