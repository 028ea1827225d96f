/**
 * What every fault scenario shares: an in-test Herald API over the scenario's database (to create the account,
 * provider, template and campaign through the real routes), `herald worker` processes that do the sending, and
 * the closing tally of what the provider received against what the ledger says.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { signUp, testConfig } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Leases run out this fast in the fault suite, so a dead worker's messages come back within seconds. */
export const FAULT_LEASE_MS = 4000;
/** What a dead worker can leave half-done: the dispatcher's in-flight window. */
export { IN_FLIGHT_WINDOW as ENGINE_WINDOW } from '../../src/engine/dispatcher.js';

export interface Account {
  accountId: number;
  headers: { 'x-token': string };
}

/** The API side of Herald, in the test process; sending happens in worker processes. */
export class HeraldUnderTest {
  readonly workers: WorkerProcess[] = [];

  private constructor(
    readonly app: FastifyInstance,
    readonly database: DatabaseHandle,
    readonly config: Config,
  ) {}

  static async open(options: { databaseUrl: string; redisUrl?: string }): Promise<HeraldUnderTest> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-faults-'));
    const database = openDatabase({ databaseUrl: options.databaseUrl });
    await migrateToLatest(database);
    const config = testConfig(dataDir, {
      databaseUrl: options.databaseUrl,
      redisUrl: options.redisUrl,
      redisPrefix: `faults-${process.pid}`,
    });
    const app = await buildApp({ config, database });
    await app.ready();
    return new HeraldUnderTest(app, database, config);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.kill('SIGKILL')));
    await this.app.close();
    await this.database.close();
    rmSync(this.config.dataDir, { recursive: true, force: true });
  }

  /** A `herald worker` process on this Herald's database (and Redis, in scale mode). */
  startWorker(name: string): WorkerProcess {
    const worker = new WorkerProcess(name, {
      DATABASE_URL: this.config.databaseUrl ?? '',
      REDIS_URL: this.config.redisUrl ?? '',
      REDIS_PREFIX: this.config.redisPrefix ?? '',
      DATA_DIR: this.config.dataDir,
      // The same key as the API's, or the worker could not read the provider's secrets.
      HERALD_SECRET: this.config.secret.toString('hex'),
      HERALD_SEED: '0',
      HERALD_LEASE_MS: String(FAULT_LEASE_MS),
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'fatal',
    });
    this.workers.push(worker);
    return worker;
  }

  async account(): Promise<Account> {
    const user = await signUp(this.app);
    const row = await this.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    return { accountId: Number(row.id), headers: { 'x-token': user.token } };
  }

  /** A plain SMTP config sending into a loopback sink at the given rate. */
  sinkConfig(account: Account, port: number, messagesPerSecond: number, limits: { limitPerDay?: number } = {}): Promise<number> {
    return this.providerConfig(account, {
      name: 'Sink',
      type: 'smtp',
      settings: { host: '127.0.0.1', port, security: 'none', senderEmail: 'news@herald.test', messagesPerSecond },
      ...limits,
    });
  }

  async providerConfig(account: Account, body: Record<string, unknown>): Promise<number> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/api/data/provider-configurations',
      headers: account.headers,
      payload: body,
    });
    if (response.statusCode !== 200) throw new Error(`provider config: ${response.statusCode} ${response.body}`);
    return response.json().id;
  }

  /** A contact list of these addresses, a template, and a campaign over them sent through one config, started. */
  async startCampaign(
    account: Account,
    options: { channel: 'EMAIL' | 'SMS'; addresses: string[]; configId: number; html?: string },
  ): Promise<number> {
    const { db } = this.database;
    const now = Date.now();
    const list = await db
      .insertInto('contact_lists')
      .values({ account_id: account.accountId, name: `Faults ${now}`, created_at: now, updated_at: now } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const email = options.channel === 'EMAIL';
    for (let i = 0; i < options.addresses.length; i += 500) {
      await db
        .insertInto('contacts')
        .values(
          options.addresses.slice(i, i + 500).map((address) => ({
            account_id: account.accountId,
            list_id: Number(list.id),
            email: email ? address : null,
            phone: email ? null : address,
            name: 'Reader',
            status: 'active',
            attributes: '{}',
            created_at: now,
            updated_at: now,
          })) as never,
        )
        .execute();
    }
    const template = await this.app.inject({
      method: 'POST',
      url: '/api/data/templates',
      headers: account.headers,
      payload: email
        ? {
            name: `faults-${now}`,
            channel: 'EMAIL',
            subject: 'News for {{ contact.name }}',
            html: options.html ?? '<p>Hello</p>',
          }
        : { name: `faults-${now}`, channel: 'SMS', smsText: 'Hello {{ contact.name }}' },
    });
    if (template.statusCode !== 200) throw new Error(`template: ${template.body}`);
    const created = await this.app.inject({
      method: 'POST',
      url: '/api/data/campaigns',
      headers: account.headers,
      payload: {
        name: `Faults ${now}`,
        channel: options.channel,
        listId: Number(list.id),
        templateName: template.json().name,
        configId: options.configId,
      },
    });
    if (created.statusCode !== 200) throw new Error(`campaign: ${created.body}`);
    const id = created.json().id as number;
    const started = await this.app.inject({
      method: 'POST',
      url: `/api/data/campaigns/${id}/start`,
      headers: account.headers,
      payload: {},
    });
    if (started.statusCode !== 200) throw new Error(`start: ${started.body}`);
    return id;
  }

  /** The campaign's messages: recipient, status and detail of each. */
  async messages(campaignId: number): Promise<{ recipient: string; status: string; detail: string | null }[]> {
    return this.database.db
      .selectFrom('messages')
      .select(['recipient', 'status', 'detail'])
      .where('campaign_id', '=', campaignId)
      .execute();
  }

  /** The config's day counters (summed, should the test cross midnight), which its day limit is checked against. */
  async usedToday(configId: number): Promise<number> {
    const row = await this.database.db
      .selectFrom('config_usage')
      .select((eb) => eb.fn.sum<number>('count').as('count'))
      .where('config_id', '=', configId)
      .where('period', 'like', 'd:%')
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Waits until every recipient has a message and none is waiting to be sent or in flight; fails at once if a worker died. */
  async waitSettled(campaignId: number, total: number, timeoutMs: number, settled = isSettled): Promise<void> {
    await waitFor(
      async () => {
        for (const worker of this.workers) if (!worker.expectedExit && worker.exited) throw worker.crashError();
        const rows = await this.messages(campaignId);
        return rows.length === total && rows.every(settled);
      },
      timeoutMs,
      `campaign ${campaignId} to settle`,
    ).catch((error: Error) => {
      const crashed = this.workers.find((worker) => !worker.expectedExit && worker.exited);
      throw crashed ? crashed.crashError() : error;
    });
  }
}

function isSettled(row: { status: string }): boolean {
  return !['unsent', 'resending', 'processing'].includes(row.status);
}

/** A `herald worker` child process; keeps the start of its stderr to show if it dies unexpectedly. */
export class WorkerProcess {
  readonly child: ChildProcess;
  /** Set before the test kills it on purpose. */
  expectedExit = false;
  private stderr = '';

  constructor(
    readonly name: string,
    env: Record<string, string>,
  ) {
    this.child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', path.join(repoRoot, 'apps/server/src/main.ts'), 'worker'],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child.stderr?.on('data', (chunk: Buffer) => {
      // The first lines say why it died (the rest of a dumped error object is noise).
      if (this.stderr.length < 3000) this.stderr = (this.stderr + chunk.toString()).slice(0, 3000);
    });
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  crashError(): Error {
    return new Error(
      `worker ${this.name} exited (code ${this.child.exitCode}, signal ${this.child.signalCode}); its stderr begins:\n${this.stderr}`,
    );
  }

  /** Throws with the end of its stderr if the process has died. */
  assertAlive(): void {
    if (this.exited) throw this.crashError();
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    this.expectedExit = true;
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await exited;
  }
}

export interface Tally {
  recipients: number;
  /** Deliveries the provider accepted (with duplicates) and distinct recipients among them. */
  received: number;
  unique: number;
  duplicates: number;
  /** Recipients without a message, or marked sent without the provider having received it. */
  lost: string[];
  /** The campaign's messages per ledger status. */
  statuses: Record<string, number>;
}

/** Compares the provider's deliveries with the ledger: who has which status, who got it, who got it twice. */
export function tally(
  addresses: string[],
  deliveries: string[],
  rows: { recipient: string; status: string }[],
  sentStatuses = ['sent'],
): Tally {
  const perRecipient = new Map<string, number>();
  for (const to of deliveries) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
  const statusOf = new Map(rows.map((row) => [row.recipient, row.status]));
  const statuses: Record<string, number> = {};
  for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
  const lost = addresses.filter((address) => {
    const status = statusOf.get(address);
    if (status === undefined) return true;
    return sentStatuses.includes(status) && !perRecipient.has(address);
  });
  return {
    recipients: addresses.length,
    received: deliveries.length,
    unique: perRecipient.size,
    duplicates: deliveries.length - perRecipient.size,
    lost,
    statuses,
  };
}

/** The closing line every scenario prints, so a CI log shows the counts and not only pass/fail. */
export function printTally(scenario: string, result: Tally, window: number, extra = ''): void {
  console.log(
    `[faults] ${scenario}: ${result.recipients} recipients, ${result.received} deliveries to ${result.unique} recipients, ` +
      `lost ${result.lost.length}, duplicates ${result.duplicates} (in-flight window ${window}), ledger ${JSON.stringify(result.statuses)}${extra ? `, ${extra}` : ''}`,
  );
}
