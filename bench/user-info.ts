/**
 * Foundation figures: cold start of the built server to healthy, and GET /api/data/users at a fixed
 * 1,000 requests/s against a bare Fastify route measured in the same run.
 * Run: npm run build && npx tsx bench/user-info.ts [seconds]
 */
import autocannon from 'autocannon';
import { startBareFastify, startHerald, stop } from './lib/processes.js';

const seconds = Number(process.argv[2] ?? 10);
const RATE = 1000;

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 20, overallRate: RATE, duration: seconds, headers });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
  };
}

const first = await startHerald(3401);
await stop(first.child);
const warm = await startHerald(3401, { DATA_DIR: first.dataDir });
console.log(`cold start to healthy: first start ${first.startMs.toFixed(0)} ms, existing data ${warm.startMs.toFixed(0)} ms`);

const signup = await fetch('http://127.0.0.1:3401/api/data/users', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench@example.com', password: 'Bench1234', timeZone: { id: '001' } }),
});
const { token } = (await signup.json()) as { token: string };
const bare = await startBareFastify(3402);

const baseline = await load('http://127.0.0.1:3402/bare');
const herald = await load('http://127.0.0.1:3401/api/data/users', { 'x-token': token });
await stop(bare);
await stop(warm.child);

console.log(
  `bare fastify: ${baseline.rps.toFixed(0)} req/s p50 ${baseline.p50} ms p99 ${baseline.p99} ms errors ${baseline.errors}`,
);
console.log(
  `GET /api/data/users: ${herald.rps.toFixed(0)} req/s p50 ${herald.p50} ms p99 ${herald.p99} ms errors ${herald.errors}`,
);
console.log(
  `summary: GET /api/data/users at ${RATE} req/s p99 ${herald.p99} ms (bare ${baseline.p99} ms, ratio ${(herald.p99 / Math.max(baseline.p99, 1)).toFixed(2)}), cold start ${warm.startMs.toFixed(0)} ms`,
);
