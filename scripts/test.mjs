// `npm test`: installs what is missing, builds, lints, runs the server suite on SQLite and in scale mode
// (PostgreSQL + Redis), the fault suite, then the browser suite in Chromium; prints one closing count line.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run, runInBackground } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reports = path.join(root, 'test-results');
mkdirSync(reports, { recursive: true });

ensureInstalled();
ensureBuilt();

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const status = run(command, args, { env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${Math.round((Date.now() - started) / 1000)} s ===`);
  if (status !== 0) failedSteps.push(name);
  return status;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

step('lint (biome)', npx, ['biome', 'ci', '.']);

// The second pass is scale mode; the tests of PostgreSQL without Redis set that mode themselves.
const serverPasses = [
  { name: 'sqlite', label: 'SQLite', env: { HERALD_TEST_DB: 'sqlite' } },
  { name: 'scale', label: 'scale mode (PostgreSQL + Redis)', env: { HERALD_TEST_DB: 'postgres', HERALD_TEST_REDIS: '1' } },
];
for (const pass of serverPasses) {
  const output = path.join(reports, `vitest-${pass.name}.json`);
  rmSync(output, { force: true });
  step(
    `server and unit tests on ${pass.label}`,
    npx,
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${output}`],
    pass.env,
  );
  countVitest(output);
}

// The fault suite runs real worker processes against a PostgreSQL and a Redis of its own, which it stops and restarts.
// It spends most of its time waiting (leases, retry delays), so it runs beside the browser suite, its output kept in a
// directory of its own (Playwright empties test-results when it starts) and printed when both are done.
const faultServers = [
  path.join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'initdb'),
  process.env.REDIS_SERVER ?? '/usr/bin/redis-server',
];
const missingServers = faultServers.filter((file) => !existsSync(file));
let faultSuite;
const faultDir = mkdtempSync(path.join(tmpdir(), 'herald-faults-'));
const faultOutput = path.join(faultDir, 'vitest-faults.json');
const faultLog = path.join(faultDir, 'faults.log');
if (missingServers.length > 0) {
  console.error(`\nThe fault suite needs ${missingServers.join(' and ')} (apt-get install -y postgresql-15 redis-server).`);
  failedSteps.push('fault suite (servers missing)');
  totals.failed += 1;
} else {
  console.log(`\n=== fault suite (worker kill, PostgreSQL and Redis restarts, failing providers), beside the browser tests ===`);
  faultSuite = runInBackground(
    npx,
    [
      'vitest',
      'run',
      '--config',
      'vitest.faults.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${faultOutput}`,
    ],
    faultLog,
  );
}

if (!existsSync(CHROMIUM)) {
  console.error(`\nBrowser tests need Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  failedSteps.push('browser tests (no chromium)');
  totals.failed += 1;
} else {
  const output = path.join(reports, 'playwright.json');
  step('browser tests (Chromium)', npx, ['playwright', 'test', '--config', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
    CHROMIUM_PATH: CHROMIUM,
  });
  countPlaywright(output);
}

if (faultSuite) {
  const status = await faultSuite;
  console.log('\n=== fault suite output ===');
  if (existsSync(faultLog)) console.log(readFileSync(faultLog, 'utf8'));
  if (status !== 0) failedSteps.push('fault suite');
  countVitest(faultOutput);
  mkdirSync(reports, { recursive: true });
  for (const file of [faultOutput, faultLog]) if (existsSync(file)) copyFileSync(file, path.join(reports, path.basename(file)));
}
rmSync(faultDir, { recursive: true, force: true });

// A step can fail outside any test (a hook timing out, a file that does not load): it still counts as a failure.
if (failedSteps.length > 0 && totals.failed === 0) totals.failed = failedSteps.length;
if (failedSteps.length > 0) console.error(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
