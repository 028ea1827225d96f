/**
 * Gzip size of the JavaScript a route of the built console loads, measured in Chromium.
 * Run: npm run build && npx tsx bench/console-bundle.ts [/login]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { repoRoot, startHerald, stop } from './lib/processes.js';

const route = process.argv[2] ?? '/login';
const herald = await startHerald(3403);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage();
const scripts = new Set<string>();
page.on('response', (response) => {
  const url = new URL(response.url());
  if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
});
await page.goto(`http://127.0.0.1:3403${route}`, { waitUntil: 'networkidle' });
await browser.close();
await stop(herald.child);

let raw = 0;
let gzip = 0;
for (const script of scripts) {
  const body = readFileSync(path.join(repoRoot, 'apps/web/dist', script));
  raw += body.length;
  if (process.env.VERBOSE) console.log(script, (gzipSync(body).length / 1024).toFixed(1));
  gzip += gzipSync(body, { level: 9 }).length;
}
console.log(
  `summary: ${route} loads ${scripts.size} scripts, ${(raw / 1024).toFixed(0)} KB raw, ${(gzip / 1024).toFixed(0)} KB gzip`,
);
