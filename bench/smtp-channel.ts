/**
 * SMTP channel throughput: the smtp channel's send() in batches of 500 vs a bare nodemailer pooled loop,
 * into one loopback smtp-server sink in a child process, for composed and for pre-built raw messages, then
 * the raw and composed channel paths split over two worker processes (BENCHMARKS.md goal: ≥ 3,000 emails/s).
 * Run: npx tsx bench/smtp-channel.ts [count]   (default 20000 messages per measurement)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { smtpChannel } from '../apps/server/src/channels/smtp.js';
import { repoRoot, stop } from './lib/processes.js';
import type { ClientJob, ClientReport } from './lib/smtp-channel-client-process.js';
import {
  type MessageForm,
  NEWSLETTER_HTML,
  rawMessage,
  rawTemplate,
  recipient,
  SENDER,
  SUBJECT,
  sendInBatches,
} from './lib/smtp-load.js';

const count = Number(process.argv[2] ?? 20_000);
const BATCH_SIZE = 500;
const CONNECTIONS = 10;
const WARMUP = 500;
const WORKER_PROCESSES = 2;
const TSX = { execArgv: ['--import', 'tsx'] };

interface SinkCounters {
  count: number;
  cpuMs: number;
}

interface Measurement {
  label: string;
  perSecond: number;
  /** Client CPU per message; undefined when the clients are other processes. */
  clientCpuMs?: number;
  sinkCpuMs: number;
}

const sink = fork(path.join(repoRoot, 'bench/lib/smtp-sink-process.ts'), TSX);
const [{ port }] = (await once(sink, 'message')) as [{ port: number }];
const template = await rawTemplate();
/** Each measurement sends to fresh ids, so the sink's count tells whether every message arrived exactly once. */
let nextId = 1;

async function sinkCounters(): Promise<SinkCounters> {
  sink.send('count');
  const [counters] = (await once(sink, 'message')) as [SinkCounters];
  return counters;
}

function takeIds(amount: number): number {
  const first = nextId;
  nextId += amount;
  return first;
}

/** Runs one measured stretch of `count` messages and checks the sink got exactly that many. */
async function measure(label: string, run: () => Promise<number>, inProcess: boolean): Promise<Measurement> {
  const sinkBefore = await sinkCounters();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const accepted = await run();
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const sinkAfter = await sinkCounters();
  const arrived = sinkAfter.count - sinkBefore.count;
  if (accepted !== count || arrived !== count)
    throw new Error(`${label}: ${accepted} accepted, ${arrived} arrived, ${count} sent`);
  const measurement: Measurement = {
    label,
    perSecond: (count / elapsedMs) * 1000,
    clientCpuMs: inProcess ? (cpu.user + cpu.system) / 1000 / count : undefined,
    sinkCpuMs: (sinkAfter.cpuMs - sinkBefore.cpuMs) / count,
  };
  const clientCpu = measurement.clientCpuMs === undefined ? '' : `, client ${measurement.clientCpuMs.toFixed(2)} ms CPU/msg`;
  console.log(
    `${label.padEnd(34)} ${measurement.perSecond.toFixed(0).padStart(6)} msgs/s${clientCpu}, sink ${measurement.sinkCpuMs.toFixed(2)} ms CPU/msg`,
  );
  return measurement;
}

function bareMail(form: MessageForm, index: number): SendMailOptions {
  if (form === 'raw') return { raw: rawMessage(template, index), envelope: { from: SENDER, to: [recipient(index)] } };
  return { from: `Herald News <${SENDER}>`, to: recipient(index), subject: SUBJECT, html: NEWSLETTER_HTML };
}

/** nodemailer alone: a pool fed continuously by BATCH_SIZE concurrent senders, no batch boundaries. */
async function bareLoop(form: MessageForm): Promise<Measurement> {
  const transporter = nodemailer.createTransport({
    pool: true,
    host: '127.0.0.1',
    port,
    ignoreTLS: true,
    maxConnections: CONNECTIONS,
    maxMessages: Number.POSITIVE_INFINITY,
  });
  const sendRange = async (first: number, amount: number) => {
    let next = first;
    let accepted = 0;
    const sender = async () => {
      while (next < first + amount) {
        const index = next++;
        await transporter.sendMail(bareMail(form, index));
        accepted += 1;
      }
    };
    await Promise.all(Array.from({ length: BATCH_SIZE }, sender));
    return accepted;
  };
  await sendRange(takeIds(WARMUP), WARMUP);
  const first = takeIds(count);
  const measurement = await measure(`bare nodemailer pool, ${form}`, () => sendRange(first, count), true);
  transporter.close();
  return measurement;
}

async function channelBatches(form: MessageForm): Promise<Measurement> {
  const channel = smtpChannel.create(
    { host: '127.0.0.1', port, security: 'none', senderName: 'Herald News', senderEmail: SENDER, maxConnections: CONNECTIONS },
    {},
  );
  await sendInBatches(channel, form, template, takeIds(WARMUP), WARMUP, BATCH_SIZE);
  const first = takeIds(count);
  const measurement = await measure(
    `smtp channel, ${form}`,
    () => sendInBatches(channel, form, template, first, count, BATCH_SIZE),
    true,
  );
  await channel.close();
  return measurement;
}

/** The channel in WORKER_PROCESSES processes sharing the load, the way Herald uses both cores. */
async function channelWorkers(form: MessageForm): Promise<Measurement> {
  const share = Math.ceil(count / WORKER_PROCESSES);
  const workers: ChildProcess[] = [];
  for (let worker = 0; worker < WORKER_PROCESSES; worker += 1) {
    const child = fork(path.join(repoRoot, 'bench/lib/smtp-channel-client-process.ts'), TSX);
    const amount = Math.min(share, count - worker * share);
    takeIds(WARMUP);
    const job: ClientJob = {
      port,
      form,
      first: takeIds(amount),
      count: amount,
      warmup: WARMUP,
      batchSize: BATCH_SIZE,
      maxConnections: CONNECTIONS,
    };
    child.send(job);
    workers.push(child);
  }
  await Promise.all(workers.map((child) => once(child, 'message')));
  const measurement = await measure(
    `smtp channel, ${form}, ${WORKER_PROCESSES} processes`,
    async () => {
      const reports = workers.map(async (child) => ((await once(child, 'message')) as [ClientReport])[0]);
      for (const child of workers) child.send('go');
      return (await Promise.all(reports)).reduce((sum, report) => sum + report.accepted, 0);
    },
    false,
  );
  await Promise.all(workers.map(stop));
  return measurement;
}

console.log(
  `smtp channel bench: ${count} messages per run, ${(NEWSLETTER_HTML.length / 1024).toFixed(1)} KB HTML, ` +
    `${CONNECTIONS} connections per client process, batches of ${BATCH_SIZE}, sink in a child process`,
);
const bareComposed = await bareLoop('composed');
const channelComposed = await channelBatches('composed');
const bareRaw = await bareLoop('raw');
const channelRaw = await channelBatches('raw');
const workersRaw = await channelWorkers('raw');
const workersComposed = await channelWorkers('composed');
await stop(sink);

const ratio = (measured: Measurement, baseline: Measurement) => (measured.perSecond / baseline.perSecond).toFixed(2);
const rate = (measured: Measurement) => measured.perSecond.toFixed(0);
console.log(`ratio channel/bare: composed ${ratio(channelComposed, bareComposed)}, raw ${ratio(channelRaw, bareRaw)}`);
console.log(
  `summary: smtp channel composed ${rate(channelComposed)}/s (bare ${rate(bareComposed)}/s, ratio ${ratio(channelComposed, bareComposed)}), ` +
    `raw ${rate(channelRaw)}/s (bare ${rate(bareRaw)}/s, ratio ${ratio(channelRaw, bareRaw)}), ` +
    `${WORKER_PROCESSES} processes raw ${rate(workersRaw)}/s composed ${rate(workersComposed)}/s (goal ≥ 3000/s)`,
);
