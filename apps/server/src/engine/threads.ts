/**
 * Runs the dispatcher's loops in worker threads (herald serve on SQLite): both cores send, and the API thread's event
 * loop keeps only the API. Claims, leases and limits live in the database, so threads share them as processes do.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export interface ThreadData {
  sqliteFile: string;
  /** The API thread's write gate (db/write-gate.ts). */
  writeGate: SharedArrayBuffer;
  secret: Uint8Array;
  publicUrl: string;
  owner: string;
  leaseMs: number;
}

export type ThreadRequest = 'wake' | 'stop';
/** What a thread tells the main thread besides its logs: it is ready, or it has sent all there was (Dispatcher onDrained). */
export type ThreadNews = 'started' | 'drained';

/** A log record of a thread, written by the main thread's logger. */
export interface ThreadLog {
  level: 'info' | 'error';
  fields: Record<string, unknown>;
  message: string;
  error?: { message: string; stack?: string | undefined };
}

export interface ThreadsLog {
  info(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

/**
 * One engine thread per core beside the API thread's: each isolate costs ~40 MB idle and more while sending, so a
 * two-core machine runs one, its other core left to the API (and to the SMTP/SMPP peers on the same machine).
 */
export function engineThreadCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** thread.js next to this module; from source (tests run TypeScript through tsx) thread.ts, with tsx registered first. */
function newThread(options: WorkerOptions): Worker {
  const extension = path.extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./thread${extension}`, import.meta.url);
  if (extension !== '.ts') return new Worker(entry, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const source = `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { ...options, eval: true });
}

/**
 * The engine's garbage is short-lived (a message's MIME, a batch's rows): a 4 MB semi-space (V8's young generation is
 * three of them) collects it as well as the default 16 MB at a quarter of the memory.
 */
const ENGINE_YOUNG_GENERATION_MB = 12;

/** A thread that dies is started again after this long; its leases run out and its messages return meanwhile. */
const RESTART_MS = 1000;

export class EngineThreads {
  private readonly workers = new Set<Worker>();
  private running = false;

  constructor(
    private readonly count: number,
    private readonly data: ThreadData,
    private readonly log?: ThreadsLog,
    private readonly onDrained?: () => void,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    await Promise.all(Array.from({ length: this.count }, (_, index) => this.spawn(index)));
  }

  notify(): void {
    for (const worker of this.workers) worker.postMessage('wake' satisfies ThreadRequest);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(
      [...this.workers].map(async (worker) => {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.postMessage('stop' satisfies ThreadRequest);
        await exited;
      }),
    );
  }

  private spawn(index: number): Promise<void> {
    const worker = newThread({
      workerData: { ...this.data, owner: `${this.data.owner}/engine-${index}` } satisfies ThreadData,
      resourceLimits: { maxYoungGenerationSizeMb: ENGINE_YOUNG_GENERATION_MB },
    });
    this.workers.add(worker);
    const started = new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: ThreadNews | ThreadLog) => {
        if (message === 'started') return resolve();
        if (message === 'drained') return this.onDrained?.();
        const fields = message.error ? { ...message.fields, err: message.error } : message.fields;
        this.log?.[message.level]({ ...fields, thread: index }, message.message);
      });
    });
    worker.on('error', (error) => this.log?.error({ err: error, thread: index }, 'engine thread failed'));
    worker.once('exit', (code) => {
      this.workers.delete(worker);
      if (!this.running) return;
      this.log?.error({ code, thread: index }, 'engine thread exited; starting it again');
      setTimeout(() => {
        if (this.running) this.spawn(index).catch(() => undefined);
      }, RESTART_MS).unref();
    });
    return started;
  }
}
