/** Ready-to-copy calls of one operation: curl, JavaScript with the Herald SDK, and Python with requests. */
import { buildPath, exampleBody, exampleParameter, type OpenApiDocument, type OperationEntry } from './openapi';

export type SampleLanguage = 'curl' | 'javascript' | 'python';

export const SAMPLE_LANGUAGES: readonly SampleLanguage[] = ['curl', 'javascript', 'python'];

/** The SDK's own method for each public operation; other calls go through `request`. */
const SDK_CALLS: Record<string, (input: { params: Record<string, string>; body: unknown }) => string> = {
  'POST /api/v1/messages': ({ body }) => `herald.messages.send(${toJavaScript(body, 0)})`,
  'POST /api/v1/messages/batch': ({ body }) => {
    const messages = (body as { messages?: unknown } | undefined)?.messages ?? [];
    return `herald.messages.sendBatch(${toJavaScript(messages, 0)})`;
  },
  'GET /api/v1/messages/{id}': ({ params }) => `herald.messages.get(${Number(params.id) || 1})`,
};

interface SampleInput {
  document: OpenApiDocument;
  entry: OperationEntry;
  origin: string;
}

function indentLines(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}

function isIdentifier(key: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(key);
}

/** JSON as a JavaScript literal: unquoted keys where allowed, single quotes, two-space indent. */
function toJavaScript(value: unknown, level: number): string {
  const pad = '  '.repeat(level + 1);
  const end = '  '.repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${pad}${toJavaScript(item, level + 1)},`).join('\n')}\n${end}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(
      ([key, item]) => `${pad}${isIdentifier(key) ? key : quote(key)}: ${toJavaScript(item, level + 1)},`,
    );
    return `{\n${lines.join('\n')}\n${end}}`;
  }
  return typeof value === 'string' ? quote(value) : JSON.stringify(value ?? null);
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** JSON as a Python literal (True/False/None), four-space indent. */
function toPython(value: unknown, level: number): string {
  const pad = '    '.repeat(level + 1);
  const end = '    '.repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${pad}${toPython(item, level + 1)},`).join('\n')}\n${end}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([key, item]) => `${pad}${JSON.stringify(key)}: ${toPython(item, level + 1)},`).join('\n')}\n${end}}`;
  }
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return JSON.stringify(value);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function exampleValues({ document, entry }: SampleInput): Record<string, string> {
  const values: Record<string, string> = {};
  for (const parameter of entry.operation.parameters ?? []) {
    if (parameter.in === 'path' || parameter.required) values[parameter.name] = exampleParameter(document, parameter);
  }
  return values;
}

function sendsBody(entry: OperationEntry): boolean {
  return entry.operation.requestBody !== undefined;
}

/** A send of the public API takes an Idempotency-Key, so a retry never sends twice. */
function takesIdempotencyKey(entry: OperationEntry): boolean {
  return entry.isPublic && entry.method === 'post';
}

export function curlSample(input: SampleInput): string {
  const { entry, origin } = input;
  const url = `${origin}${buildPath(entry.path, exampleValues(input), entry.operation.parameters ?? [])}`;
  const lines = [`curl -X ${entry.method.toUpperCase()} ${shellQuote(url)}`];
  lines.push(entry.isPublic ? `-H "Authorization: Bearer $HERALD_API_KEY"` : `-H "X-Token: $HERALD_SESSION_TOKEN"`);
  // uuidgen on macOS and most Linux systems, the kernel's generator where it is missing.
  if (takesIdempotencyKey(entry)) lines.push(`-H "Idempotency-Key: $(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)"`);
  if (sendsBody(entry)) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`--data-raw ${shellQuote(JSON.stringify(exampleBody(input.document, entry) ?? {}, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

export function javascriptSample(input: SampleInput): string {
  const { document, entry, origin } = input;
  const params = exampleValues(input);
  const body = sendsBody(entry) ? exampleBody(document, entry) : undefined;
  const sdkCall = SDK_CALLS[entry.id];
  const credentials = entry.isPublic ? 'apiKey: process.env.HERALD_API_KEY' : 'token: process.env.HERALD_SESSION_TOKEN';
  const call = sdkCall
    ? sdkCall({ params, body })
    : `herald.request(${quote(entry.method.toUpperCase())}, ${quote(
        buildPath(entry.path, params, entry.operation.parameters ?? []).replace(/^\/api/, ''),
      )}${body === undefined ? '' : `, ${toJavaScript(body, 0)}`})`;
  return [
    `import { HeraldClient } from '@herald/sdk';`,
    '',
    `const herald = new HeraldClient({ baseUrl: ${quote(origin)}, ${credentials} });`,
    '',
    `const answer = await ${call};`,
    'console.log(answer);',
  ].join('\n');
}

export function pythonSample(input: SampleInput): string {
  const { document, entry, origin } = input;
  const url = `${origin}${buildPath(entry.path, exampleValues(input), entry.operation.parameters ?? [])}`;
  const headers = entry.isPublic
    ? [`"Authorization": f"Bearer {os.environ['HERALD_API_KEY']}"`]
    : [`"X-Token": os.environ["HERALD_SESSION_TOKEN"]`];
  if (takesIdempotencyKey(entry)) headers.push('"Idempotency-Key": str(uuid.uuid4())');
  const lines = ['import os', ...(takesIdempotencyKey(entry) ? ['import uuid'] : []), '', 'import requests', ''];
  lines.push(`response = requests.${entry.method}(`);
  lines.push(`    ${JSON.stringify(url)},`);
  lines.push(`    headers={${headers.join(', ')}},`);
  if (sendsBody(entry)) lines.push(`    json=${indentLines(toPython(exampleBody(document, entry) ?? {}, 0), '    ')},`);
  lines.push('    timeout=10,', ')', 'response.raise_for_status()', 'print(response.json())');
  return lines.join('\n');
}

export function sample(language: SampleLanguage, input: SampleInput): string {
  if (language === 'curl') return curlSample(input);
  if (language === 'javascript') return javascriptSample(input);
  return pythonSample(input);
}

/** Verifying a webhook without the SDK; the SDK part shows verifyWebhook. */
export const WEBHOOK_PYTHON = `import hashlib, hmac, time

def verify_webhook(secret: str, raw_body: bytes, header: str, tolerance: int = 300) -> bool:
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamp = next((value for name, value in parts if name == "t"), "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, value) for name, value in parts if name == "v1")`;
