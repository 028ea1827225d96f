// `npm test`: installs what is missing, builds, lints, runs the server suite on SQLite and on
// PostgreSQL, the fault suite, then the browser suite in Chromium; prints one closing count line.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, run } from './lib.mjs';

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
  const status = run(command, args, { env: { ...process.env, ...env } });
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

for (const database of ['sqlite', 'postgres']) {
  const output = path.join(reports, `vitest-${database}.json`);
  step(
    `server and unit tests on ${database}`,
    npx,
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${output}`],
    {
      HERALD_TEST_DB: database,
    },
  );
  countVitest(output);
}

// The fault suite runs real worker processes against a PostgreSQL and a Redis of its own, which it stops and restarts.
const faultServers = [
  path.join(process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin', 'initdb'),
  process.env.REDIS_SERVER ?? '/usr/bin/redis-server',
];
const missingServers = faultServers.filter((file) => !existsSync(file));
if (missingServers.length > 0) {
  console.error(`\nThe fault suite needs ${missingServers.join(' and ')} (apt-get install -y postgresql-15 redis-server).`);
  failedSteps.push('fault suite (servers missing)');
  totals.failed += 1;
} else {
  const output = path.join(reports, 'vitest-faults.json');
  rmSync(output, { force: true });
  step('fault suite (worker kill, PostgreSQL and Redis restarts, failing providers)', npx, [
    'vitest',
    'run',
    '--config',
    'vitest.faults.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${output}`,
  ]);
  countVitest(output);
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

// A step can fail outside any test (a hook timing out, a file that does not load): it still counts as a failure.
if (failedSteps.length > 0 && totals.failed === 0) totals.failed = failedSteps.length;
if (failedSteps.length > 0) console.error(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length > 0 ? 1 : 0);
