/**
 * The smpp channel's send() against a bare smpp client loop (window 50), both into the same SMSC in a child
 * process, in one run: submit_sm/s, client and SMSC CPU per submit_sm, and the channel/bare ratio. Goal: ≥ 3,000/s.
 * Measured twice: against an SMSC answering with Nagle (headline) and one answering with TCP_NODELAY, since Nagle
 * delays the last answers of each batch, which send() waits for and the bare loop never does.
 * Run: npx tsx bench/smpp-channel.ts [count]   (after `npm run build -w packages/shared` if that package changed)
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import smpp from 'smpp';
import { createSmppChannel } from '../apps/server/src/channels/smpp.js';
import type { OutgoingSms } from '../apps/server/src/channels/types.js';
import { repoRoot } from './lib/processes.js';

const COUNT = Number(process.argv[2] ?? 50_000);
const WINDOW = 50;
const BATCH = 1_000;
const WARMUP = 2_000;
const GOAL = 3_000;
const CREDENTIALS = { systemId: 'herald', password: 'secret' };

interface SinkState {
  count: number;
  cpuMicros: number;
}

interface Sink {
  child: ChildProcess;
  ports: { nagle: number; noDelay: number };
  state(): Promise<SinkState>;
}

interface Run {
  rate: number;
  cpuMicros: number;
}

const destination = (i: number) => `38050${String(i % 10_000_000).padStart(7, '0')}`;
const text = (i: number) => `Your Herald code is ${String(i).padStart(6, '0')}. It expires in 10 minutes.`;

async function startSink(): Promise<Sink> {
  const child = fork(path.join(repoRoot, 'bench/lib/smpp-sink.ts'), { execArgv: ['--import', 'tsx'] });
  const { ports } = await new Promise<Pick<Sink, 'ports'>>((resolve) =>
    child.once('message', (message) => resolve(message as Pick<Sink, 'ports'>)),
  );
  const state = () =>
    new Promise<SinkState>((resolve) => {
      child.once('message', (message) => resolve(message as SinkState));
      child.send('state');
    });
  return { child, ports, state };
}

async function measure(run: () => Promise<void>): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rate: COUNT / seconds, cpuMicros: (used.user + used.system) / COUNT };
}

/** The baseline: the smpp package's own client keeping WINDOW submit_sm in flight, nothing else. */
async function bareLoop(port: number): Promise<Run> {
  const session = smpp.connect({ host: '127.0.0.1', port });
  session.on('error', (error: Error) => {
    throw error;
  });
  await new Promise<void>((resolve, reject) => {
    session.on('connect', () =>
      session.bind_transceiver({ system_id: CREDENTIALS.systemId, password: CREDENTIALS.password }, (response) =>
        response.command_status === 0 ? resolve() : reject(new Error(`bind refused: ${response.command_status}`)),
      ),
    );
  });
  const submitAll = (total: number) =>
    new Promise<void>((resolve, reject) => {
      let sent = 0;
      let answered = 0;
      const next = () => {
        const i = sent++;
        session.submit_sm(
          {
            source_addr_ton: 5,
            source_addr: 'Herald',
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            destination_addr: destination(i),
            registered_delivery: 1,
            short_message: text(i),
          },
          (response) => {
            if (response.command_status !== 0) reject(new Error(`submit_sm refused: ${response.command_status}`));
            else if (++answered === total) resolve();
            else if (sent < total) next();
          },
        );
      };
      for (let i = 0; i < Math.min(WINDOW, total); i++) next();
    });
  await submitAll(WARMUP);
  const run = await measure(() => submitAll(COUNT));
  await new Promise<void>((resolve) => session.unbind({}, () => resolve()));
  session.destroy();
  return run;
}

/** Herald's channel as a worker drives it: send() one batch at a time. */
async function channelLoop(port: number): Promise<Run> {
  const channel = createSmppChannel(
    { host: '127.0.0.1', port, ...CREDENTIALS, sender: 'Herald', windowSize: WINDOW },
    { log: { info() {}, warn: (obj, msg) => console.warn(msg, obj) } },
  );
  let id = 0;
  const sendAll = async (total: number) => {
    for (let done = 0; done < total; done += BATCH) {
      const batch: OutgoingSms[] = [];
      for (let i = done; i < Math.min(total, done + BATCH); i++)
        batch.push({ id: ++id, to: `+${destination(i)}`, text: text(i) });
      const refused = (await channel.send(batch)).find((result) => !result.accepted);
      if (refused) throw new Error(`message ${refused.id} refused: ${refused.error}`);
    }
  };
  await sendAll(WARMUP);
  const run = await measure(() => sendAll(COUNT));
  await channel.close();
  return run;
}

const sink = await startSink();
let complete = true;

/** One measurement, checked against the SMSC's count: every submit_sm (warm-up included) must arrive exactly once. */
async function phase(label: string, loop: () => Promise<Run>): Promise<Run> {
  const before = await sink.state();
  const run = await loop();
  const after = await sink.state();
  const arrived = after.count - before.count;
  if (arrived !== COUNT + WARMUP) complete = false;
  console.log(
    `${label}: ${Math.round(run.rate).toLocaleString('en')} submit_sm/s; CPU per submit_sm: client ${run.cpuMicros.toFixed(0)} µs, SMSC ${(
      (after.cpuMicros - before.cpuMicros) / arrived
    ).toFixed(0)} µs${arrived === COUNT + WARMUP ? '' : `; SMSC COUNTED ${arrived}, EXPECTED ${COUNT + WARMUP}`}`,
  );
  return run;
}

try {
  console.log(
    `${COUNT.toLocaleString('en')} messages per measurement, window ${WINDOW}, send() batches of ${BATCH.toLocaleString('en')}`,
  );
  const bare = await phase('bare smpp client, SMSC with Nagle', () => bareLoop(sink.ports.nagle));
  const channel = await phase('channel send(), SMSC with Nagle', () => channelLoop(sink.ports.nagle));
  const ratio = channel.rate / bare.rate;
  console.log(`ratio channel/bare, SMSC with Nagle: ${ratio.toFixed(2)}`);
  const bareNoDelay = await phase('bare smpp client, SMSC with TCP_NODELAY', () => bareLoop(sink.ports.noDelay));
  const channelNoDelay = await phase('channel send(), SMSC with TCP_NODELAY', () => channelLoop(sink.ports.noDelay));
  const ratioNoDelay = channelNoDelay.rate / bareNoDelay.rate;
  console.log(`ratio channel/bare, SMSC with TCP_NODELAY: ${ratioNoDelay.toFixed(2)}`);
  const worst = Math.min(channel.rate, channelNoDelay.rate);
  console.log(
    `smpp-channel: send() ${Math.round(channel.rate).toLocaleString('en')} submit_sm/s (goal ≥ ${GOAL.toLocaleString('en')}: ${
      worst >= GOAL ? 'met' : 'MISSED'
    }), ratio to bare ${ratio.toFixed(2)}; with a TCP_NODELAY SMSC ${Math.round(channelNoDelay.rate).toLocaleString(
      'en',
    )}/s, ratio ${ratioNoDelay.toFixed(2)}; ${complete ? 'every submit_sm arrived once' : 'SMSC COUNT MISMATCH'}`,
  );
} finally {
  sink.child.disconnect();
}
