/**
 * The public sending API: checks each message, persists it on the priority lane (lane 0) as unsent and
 * answers its id before anything goes to a provider. An Idempotency-Key's first answer is stored in the
 * same transaction as the messages, so concurrent retries persist exactly one set and all get that answer.
 */

import { createHash } from 'node:crypto';
import { type Language, SMS_MAX_PARTS, smsPartsOverLimit } from '@herald/shared';
import { detailText } from '@herald/shared/message-details';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, type FieldFailure, notFound } from '../http/errors.js';
import { insertMessages, type NewMessage } from './ledger.js';
import { emailRecipient, phoneRecipient } from './recipient.js';
import type { MessageWriter, Written } from './writer.js';

export const API_LANE = 0;

type Channel = 'email' | 'sms';
export type MessageInput = {
  channel: Channel;
  to: string;
  template?: string | undefined;
  content?: { subject?: string | undefined; html?: string | undefined; text?: string | undefined } | undefined;
  variables?: Record<string, unknown> | undefined;
  groupId?: number | undefined;
  configId?: number | undefined;
  sendAt?: string | undefined;
  locale?: string | undefined;
};

export interface Accepted {
  id: number;
  status: 'unsent';
  channel: Channel;
  to: string;
  createdAt: string;
}

const CATEGORY: Record<Channel, 'EMAIL' | 'SMS'> = { email: 'EMAIL', sms: 'SMS' };

/** E.164 from what a person types: spaces, dashes, dots and parentheses dropped, a plus added. */
interface Lookups {
  templates: Map<string, { id: number; channel: string }>;
  groups: Map<number, string>;
  configs: Map<number, string>;
}

/** Everything the messages name, read with one query per kind for a whole batch. */
async function lookups(db: Db, accountId: number, items: readonly MessageInput[]): Promise<Lookups> {
  const names = [...new Set(items.flatMap((item) => (item.template === undefined ? [] : [item.template])))];
  const groupIds = [...new Set(items.flatMap((item) => (item.groupId === undefined ? [] : [item.groupId])))];
  const configIds = [...new Set(items.flatMap((item) => (item.configId === undefined ? [] : [item.configId])))];
  const templates =
    names.length === 0
      ? []
      : await db
          .selectFrom('templates')
          .select(['id', 'name', 'channel'])
          .where('account_id', '=', accountId)
          .where('name', 'in', names)
          .execute();
  const groups =
    groupIds.length === 0
      ? []
      : await db
          .selectFrom('provider_groups')
          .select(['id', 'category'])
          .where('account_id', '=', accountId)
          .where('id', 'in', groupIds)
          .execute();
  const configs =
    configIds.length === 0
      ? []
      : await db
          .selectFrom('provider_configs')
          .select(['id', 'category'])
          .where('account_id', '=', accountId)
          .where('id', 'in', configIds)
          .execute();
  return {
    templates: new Map(templates.map((t) => [t.name, { id: Number(t.id), channel: t.channel }])),
    groups: new Map(groups.map((g) => [Number(g.id), g.category])),
    configs: new Map(configs.map((c) => [Number(c.id), c.category])),
  };
}

/** One message as the ledger stores it, or the fields it got wrong (named under `prefix`). */
function toNewMessage(
  accountId: number,
  item: MessageInput,
  found: Lookups,
  prefix: string,
  now: number,
): { message: NewMessage; to: string } | { failures: FieldFailure[] } {
  const failures: FieldFailure[] = [];
  const fail = (field: string, key: FieldFailure['key'], params: Record<string, string | number> = {}) =>
    failures.push({ field: prefix + field, key, params });
  const category = CATEGORY[item.channel];

  const given = item.to.trim();
  const to = item.channel === 'email' ? emailRecipient(given) : phoneRecipient(given);
  if (to === null) fail('to', item.channel === 'email' ? 'messages.invalidEmail' : 'messages.invalidPhone', { value: given });

  let templateId: number | null = null;
  let payload: string | null = null;
  if ((item.template === undefined) === (item.content === undefined)) {
    fail('template', 'messages.templateOrContent');
  } else if (item.template !== undefined) {
    const template = found.templates.get(item.template);
    if (!template) fail('template', 'messages.unknownTemplate', { name: item.template });
    else if (template.channel !== category) fail('template', 'messages.templateChannel', { name: item.template });
    else templateId = template.id;
    payload = item.variables ? JSON.stringify({ variables: item.variables }) : null;
  } else if (item.content) {
    const { subject, html, text } = item.content;
    if (item.channel === 'email') {
      if (!subject?.trim()) fail('content.subject', 'messages.contentMissing', { part: 'subject' });
      if (!html?.trim() && !text?.trim()) fail('content.html', 'messages.contentMissing', { part: 'html / text' });
    } else if (!text?.trim()) fail('content.text', 'messages.contentMissing', { part: 'text' });
    else {
      const parts = smsPartsOverLimit(text);
      if (parts !== null) fail('content.text', 'messages.smsTooLong', { parts, max: SMS_MAX_PARTS });
    }
    payload = JSON.stringify(item.channel === 'email' ? { subject, html, text } : { text });
  }

  if (item.groupId !== undefined && item.configId !== undefined) fail('configId', 'messages.routeConflict');
  else if (item.groupId !== undefined && found.groups.get(item.groupId) !== category)
    fail('groupId', 'messages.unknownGroup', { id: item.groupId });
  else if (item.configId !== undefined && found.configs.get(item.configId) !== category)
    fail('configId', 'messages.unknownConfig', { id: item.configId });

  if (failures.length > 0 || to === null) return { failures };
  const sendAt = item.sendAt === undefined ? now : Date.parse(item.sendAt);
  return {
    to,
    message: {
      accountId,
      campaignId: null,
      lane: API_LANE,
      channel: category,
      recipient: to,
      templateId,
      payload,
      routeGroupId: item.groupId ?? null,
      routeConfigId: item.configId ?? null,
      locale: item.locale ?? null,
      nextAttemptAt: Math.max(now, sendAt),
    },
  };
}

/** Checks every message first: one bad message refuses the whole request and nothing is stored. */
async function prepare(db: Db, accountId: number, items: readonly MessageInput[], batch: boolean, now: number) {
  const found = await lookups(db, accountId, items);
  const prepared: { message: NewMessage; to: string; channel: Channel }[] = [];
  const failures: FieldFailure[] = [];
  items.forEach((item, index) => {
    const result = toNewMessage(accountId, item, found, batch ? `messages.${index}.` : '', now);
    if ('failures' in result) failures.push(...result.failures);
    else prepared.push({ ...result, channel: item.channel });
  });
  if (failures.length > 0) throw new AppError(422, 'error.validation', {}, failures);
  return prepared;
}

type Write = (messages: readonly NewMessage[]) => Promise<Written>;

/** Inside an idempotency transaction the messages are written there; otherwise through the group writer. */
function writeIn(trx: Db): Write {
  return async (messages) => {
    const now = Date.now();
    return { ids: await insertMessages(trx, messages, now), now };
  };
}

async function persist(write: Write, prepared: Awaited<ReturnType<typeof prepare>>): Promise<Accepted[]> {
  const { ids, now } = await write(prepared.map((p) => p.message));
  const createdAt = new Date(now).toISOString();
  return prepared.map((p, index) => ({ id: ids[index]!, status: 'unsent', channel: p.channel, to: p.to, createdAt }));
}

/** JSON with sorted keys, so a retry's body hashes the same whatever order its client wrote the keys in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function storedAnswer<T>(db: Db, accountId: number, key: string, requestHash: string): Promise<T | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'answer'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== requestHash) throw new AppError(422, 'idempotency.mismatch');
  return JSON.parse(row.answer) as T;
}

/**
 * Runs `work` once per Idempotency-Key: its answer is stored in the same transaction as what it wrote.
 * A concurrent request with the same key waits on the key's row (PostgreSQL) or the connection (SQLite),
 * then finds the stored answer.
 */
async function once<T>(
  { db, writer }: SendDeps,
  accountId: number,
  idempotency: { key: string; body: unknown; kind: string } | undefined,
  work: (db: Db, write: Write) => Promise<T>,
): Promise<T> {
  if (!idempotency) return work(db, (messages) => writer.write(messages));
  const { key } = idempotency;
  const requestHash = createHash('sha256')
    .update(`${idempotency.kind}\n${canonical(idempotency.body)}`)
    .digest('hex');
  const earlier = await storedAnswer<T>(db, accountId, key, requestHash);
  if (earlier !== undefined) return earlier;
  try {
    return await db.transaction().execute(async (trx) => {
      const now = Date.now();
      await trx
        .insertInto('idempotency_keys')
        .values({ account_id: accountId, key, request_hash: requestHash, answer: '', created_at: now })
        .execute();
      const answer = await work(trx, writeIn(trx));
      await trx
        .updateTable('idempotency_keys')
        .set({ answer: JSON.stringify(answer) })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
      return answer;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const stored = await storedAnswer<T>(db, accountId, key, requestHash);
    if (stored === undefined) throw error;
    return stored;
  }
}

export interface SendDeps {
  db: Db;
  writer: MessageWriter;
}

export async function sendOne(
  deps: SendDeps,
  accountId: number,
  item: MessageInput,
  idempotencyKey: string | undefined,
): Promise<Accepted> {
  return once(
    deps,
    accountId,
    idempotencyKey ? { key: idempotencyKey, body: item, kind: 'message' } : undefined,
    async (db, write) => {
      const [accepted] = await persist(write, await prepare(db, accountId, [item], false, Date.now()));
      return accepted!;
    },
  );
}

export async function sendBatch(
  deps: SendDeps,
  accountId: number,
  items: readonly MessageInput[],
  idempotencyKey: string | undefined,
): Promise<{ messages: Accepted[] }> {
  return once(
    deps,
    accountId,
    idempotencyKey ? { key: idempotencyKey, body: items, kind: 'batch' } : undefined,
    async (db, write) => ({
      messages: await persist(write, await prepare(db, accountId, items, true, Date.now())),
    }),
  );
}

export async function getMessage(db: Db, accountId: number, id: number, language: Language) {
  const row = await db
    .selectFrom('messages')
    .leftJoin('templates', 'templates.id', 'messages.template_id')
    .select([
      'messages.id',
      'messages.channel',
      'messages.recipient',
      'messages.status',
      'messages.config_id',
      'messages.provider_message_id',
      'messages.attempts',
      'messages.locale',
      'messages.created_at',
      'messages.updated_at',
      'templates.name as template',
    ])
    .where('messages.account_id', '=', accountId)
    .where('messages.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const events = await db
    .selectFrom('message_events')
    .select(['status', 'at', 'detail', 'config_id'])
    .where('account_id', '=', accountId)
    .where('message_id', '=', id)
    .orderBy('id')
    .execute();
  const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
  return {
    id: Number(row.id),
    channel: row.channel.toLowerCase() as Channel,
    to: row.recipient,
    status: row.status,
    template: row.template ?? null,
    configId: row.config_id === null ? null : Number(row.config_id),
    providerMessageId: row.provider_message_id,
    attempts: Number(row.attempts),
    locale: row.locale,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    // Every message starts unsent; the ledger records only the changes after that.
    history: [
      { status: 'unsent', at: iso(row.created_at), detail: null, configId: null },
      ...events.map((e) => ({
        status: e.status,
        at: iso(e.at),
        detail: detailText(e.detail, language),
        configId: e.config_id === null ? null : Number(e.config_id),
      })),
    ],
  };
}
