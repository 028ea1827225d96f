/**
 * The documentation's code samples work as shown: for each public operation of the real OpenAPI document, the curl,
 * Python (requests) and JavaScript (SDK) samples the page renders are run against a live Herald with a real API key.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.js';
import type { DatabaseHandle } from '../../server/src/db/database.js';
import { migrateToLatest } from '../../server/src/db/migrate.js';
import { openTestDatabase, signUp, testConfig } from '../../server/test/helpers/app.js';
import { groupOperations, type OpenApiDocument, type OperationEntry } from '../src/sections/documentation/openapi';
import { curlSample, javascriptSample, pythonSample, WEBHOOK_PYTHON } from '../src/sections/documentation/samples';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SDK_SOURCE = pathToFileURL(path.join(ROOT, 'packages/sdk/src/index.ts')).href;
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

let app: FastifyInstance;
let database: DatabaseHandle;
let dropDatabase: () => Promise<void>;
let dataDir: string;
let origin: string;
let apiKey: string;
let document: OpenApiDocument;
let publicOperations: OperationEntry[];

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { ...process.env, HERALD_API_KEY: apiKey }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function available(command: string, args: string[]): Promise<boolean> {
  return (await run(command, args).catch(() => ({ code: 1 }))).code === 0;
}

const hasCurl = await available('curl', ['--version']);
const hasPython = await available('python3', ['--version']);
const hasPythonRequests = hasPython && (await available('python3', ['-c', 'import requests']));

function entry(id: string): OperationEntry {
  const found = publicOperations.find((operation) => operation.id === id);
  if (!found) throw new Error(`${id} is not among the public operations`);
  return found;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'herald-doc-samples-'));
  const opened = await openTestDatabase();
  database = opened.database;
  dropDatabase = opened.drop;
  await migrateToLatest(database);
  // seed: the sandbox providers carry the samples' e-mail and SMS.
  app = await buildApp({ config: testConfig(dataDir, { seed: true }), database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const user = await signUp(app, { role: 'api' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/data/api-keys',
    headers: { 'x-token': user.token },
    payload: { name: 'Samples', scope: 'send' },
  });
  apiKey = created.json().key;
  document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  publicOperations = groupOperations(document)
    .filter((group) => group.isPublic)
    .flatMap((group) => group.operations.filter((operation) => operation.isPublic));
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the public operations', () => {
  it('come first, under /api/v1, with the three sending calls', () => {
    expect(groupOperations(document)[0]!.isPublic).toBe(true);
    expect(publicOperations.map((operation) => operation.id).sort()).toEqual([
      'GET /api/v1/messages/{id}',
      'POST /api/v1/messages',
      'POST /api/v1/messages/batch',
    ]);
  });
});

// The first message sent gets id 1 in the fresh database, which the GET samples read.
describe.skipIf(!hasCurl)('curl samples', () => {
  it('send one message, a batch, and read the first message back', async () => {
    const one = await run('bash', ['-c', curlSample({ document, entry: entry('POST /api/v1/messages'), origin })]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: 1, status: 'unsent', to: 'recipient@example.com' });

    const batch = await run('bash', ['-c', curlSample({ document, entry: entry('POST /api/v1/messages/batch'), origin })]);
    expect(JSON.parse(batch.stdout).messages).toHaveLength(2);

    const read = await run('bash', ['-c', curlSample({ document, entry: entry('GET /api/v1/messages/{id}'), origin })]);
    expect(JSON.parse(read.stdout)).toMatchObject({ id: 1, history: [{ status: 'unsent' }] });
  });
});

describe.skipIf(!hasPythonRequests)('Python samples', () => {
  it('send one message, a batch, and read a message back', async () => {
    for (const id of ['POST /api/v1/messages', 'POST /api/v1/messages/batch', 'GET /api/v1/messages/{id}']) {
      const result = await run('python3', ['-c', pythonSample({ document, entry: entry(id), origin })]);
      expect(result.code, `${id}: ${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(id.startsWith('GET') ? /'history': \[/ : /'status': 'unsent'/);
    }
  }, 90_000);
});

describe.skipIf(!hasPython)('the Python webhook check', () => {
  it('accepts a fresh signature of the body and refuses a changed body, another secret or an old signature', async () => {
    const secret = 'whsec_docs';
    const body = JSON.stringify({ type: 'message.status', messageId: 7, status: 'delivered', to: 'олена@example.com' });
    const sign = (text: string, at: number) => `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${text}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, string, string][] = [
      ['fresh', secret, body, sign(body, now)],
      ['changed body', secret, body.replace('delivered', 'read'), sign(body, now)],
      ['other secret', 'whsec_other', body, sign(body, now)],
      ['old', secret, body, sign(body, now - 600)],
    ];
    const script = `${WEBHOOK_PYTHON}\nimport json, sys\nfor secret, body, header in json.loads(sys.argv[1]):\n    print(verify_webhook(secret, body.encode(), header))`;
    const result = await run('python3', ['-c', script, JSON.stringify(cases.map(([, ...rest]) => rest))]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(['True', 'False', 'False', 'False']);
  });
});

describe('JavaScript (SDK) samples', () => {
  it('send one message, a batch, and read a message back', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'herald-doc-js-'));
    try {
      for (const [index, id] of ['POST /api/v1/messages', 'POST /api/v1/messages/batch', 'GET /api/v1/messages/{id}'].entries()) {
        const source = javascriptSample({ document, entry: entry(id), origin });
        expect(source).toContain("from '@herald/sdk'");
        // The one change: the package name points at the SDK's source in this checkout.
        const file = path.join(folder, `sample-${index}.mts`);
        writeFileSync(file, source.replace("'@herald/sdk'", `'${SDK_SOURCE}'`));
        const result = await run(TSX, [file]);
        expect(result.code, `${id}: ${result.stderr}`).toBe(0);
        expect(result.stdout).toMatch(id.startsWith('GET') ? /history: \[/ : /status: 'unsent'/);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
