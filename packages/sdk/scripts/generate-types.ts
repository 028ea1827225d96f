/**
 * Writes src/generated/api.ts: the request and answer types of every /api/v1 operation, generated from Herald's
 * OpenAPI document with json-schema-to-typescript. The document comes from the server's own code (buildApp over
 * an empty in-memory database), or from a running Herald with `--url http://host:port/api/openapi.json`.
 *
 *   npm run generate -w packages/sdk
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean; schema: JSONSchema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: JSONSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JSONSchema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

const PUBLIC_PREFIX = '/api/v1/';
export const OUTPUT = path.resolve(import.meta.dirname, '../src/generated/api.ts');

/** Names the SDK's wrapper imports; an operation not listed here is named after its operationId or method and path. */
const OPERATION_NAMES: Record<string, string> = {
  'POST /api/v1/messages': 'SendMessage',
  'POST /api/v1/messages/batch': 'SendBatch',
  'GET /api/v1/messages/{id}': 'GetMessage',
};

export async function documentFromServer(): Promise<OpenApiDocument> {
  const { buildApp } = await import('../../../apps/server/src/app.js');
  const { loadConfig } = await import('../../../apps/server/src/config.js');
  const { openDatabase } = await import('../../../apps/server/src/db/database.js');
  const { migrateToLatest } = await import('../../../apps/server/src/db/migrate.js');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-sdk-types-'));
  const database = openDatabase({ sqliteFile: ':memory:' });
  try {
    await migrateToLatest(database);
    const config = loadConfig({ DATA_DIR: dataDir, HERALD_SECRET: 'sdk-type-generation', HERALD_SEED: '0', LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, database });
    await app.ready();
    const document = app.swagger() as unknown as OpenApiDocument;
    await app.close();
    return document;
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function documentFromUrl(url: string): Promise<OpenApiDocument> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function operationName(method: string, route: string, operation: Operation): string {
  const listed = OPERATION_NAMES[`${method.toUpperCase()} ${route}`];
  if (listed) return listed;
  if (operation.operationId) return pascal(operation.operationId);
  return pascal(`${method} ${route.slice(PUBLIC_PREFIX.length).replace(/[{}]/g, '')}`);
}

function jsonSchema(content: Record<string, { schema?: JSONSchema }> | undefined): JSONSchema | undefined {
  return content?.['application/json']?.schema;
}

/** Schemas already given a name, by their JSON: a later schema that contains one refers to it by that name. */
type NamedSchemas = Map<string, string>;

function reuseNamed(schema: JSONSchema, named: NamedSchemas): JSONSchema {
  if (Array.isArray(schema)) return schema.map((item) => reuseNamed(item, named)) as unknown as JSONSchema;
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = named.get(JSON.stringify(schema));
  if (name) return { tsType: name };
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, reuseNamed(value as JSONSchema, named)]),
  ) as JSONSchema;
}

/** Formatted as Biome formats the repository, so the committed file is exactly the generator's output. */
const STYLE = {
  singleQuote: true,
  printWidth: 130,
  tabWidth: 2,
  trailingComma: 'all',
  semi: true,
  bracketSpacing: true,
} as const;

/** Inline objects stay inline (no invented names), and no index signature the server would refuse. */
async function typeOf(schema: JSONSchema, name: string, comment: string, named: NamedSchemas): Promise<string> {
  const inner = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, reuseNamed(value as JSONSchema, named)]));
  const description = [comment, typeof schema.description === 'string' ? schema.description : ''].filter(Boolean).join('\n\n');
  const source = await compile({ ...inner, title: undefined, description }, name, {
    bannerComment: '',
    additionalProperties: false,
    format: true,
    style: STYLE,
    unknownAny: true,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
  });
  named.set(JSON.stringify(schema), name);
  return source.trim();
}

/** The source of src/generated/api.ts for this document. */
export async function generateTypes(document: OpenApiDocument): Promise<string> {
  const named: NamedSchemas = new Map();
  const blocks: string[] = [];
  const index: string[] = [];
  let errorBody: JSONSchema | undefined;
  for (const [route, operations] of Object.entries(document.paths)) {
    if (!route.startsWith(PUBLIC_PREFIX)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const name = operationName(method, route, operation);
      const title = `${method.toUpperCase()} ${route}`;
      index.push(` *   ${title} — ${operation.summary ?? name}`);
      const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      if (pathParameters.length > 0) {
        const schema: JSONSchema = {
          type: 'object',
          required: pathParameters.map((parameter) => parameter.name),
          properties: Object.fromEntries(
            pathParameters.map((parameter) => [parameter.name, { ...parameter.schema, description: parameter.description }]),
          ),
        };
        blocks.push(await typeOf(schema, `${name}Params`, `Path parameters of ${title}.`, named));
      }
      const body = jsonSchema(operation.requestBody?.content);
      if (body) blocks.push(await typeOf(body, `${name}Request`, `Body of ${title}.`, named));
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = jsonSchema(response.content);
        if (!schema) continue;
        if (/^2\d\d$/.test(status)) blocks.push(await typeOf(schema, `${name}Response`, `Answer ${status} of ${title}.`, named));
        else if (/^4\d\d$/.test(status)) errorBody ??= schema;
      }
    }
  }
  if (index.length === 0) throw new Error(`the OpenAPI document has no ${PUBLIC_PREFIX} operations`);
  if (errorBody) blocks.push(await typeOf(errorBody, 'ErrorBody', 'The error answer of every /api/v1 operation.', named));

  const header = [
    '/**',
    ` * Generated by packages/sdk/scripts/generate-types.ts from ${document.info.title} ${document.info.version}'s OpenAPI`,
    ' * document; do not edit by hand, run `npm run generate -w packages/sdk` after changing an /api/v1 route. Covers:',
    ...index,
    ' */',
  ].join('\n');
  return `${header}\n\n${blocks.join('\n\n')}\n`;
}

/** `--url <openapi.json>` reads a running Herald; `--check` only compares and fails when the committed file is stale. */
async function main(): Promise<void> {
  const urlFlag = process.argv.indexOf('--url');
  const url = urlFlag >= 0 ? process.argv[urlFlag + 1] : undefined;
  const source = await generateTypes(url ? await documentFromUrl(url) : await documentFromServer());
  const relative = path.relative(process.cwd(), OUTPUT);
  if (process.argv.includes('--check')) {
    const current = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : '';
    if (current !== source) throw new Error(`${relative} is out of date: run npm run generate -w packages/sdk`);
    console.log(`${relative} is up to date`);
    return;
  }
  writeFileSync(OUTPUT, source);
  console.log(`${relative} written`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
