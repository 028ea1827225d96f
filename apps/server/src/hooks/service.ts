/**
 * Slack notifications: an account's settings, the listener that turns engine events into queued deliveries,
 * and the test post. Sending queued deliveries is the worker's job (hooks/worker.ts), never the engine's.
 */
import {
  checkSenderName,
  checkSlackUrl,
  type Language,
  NOTIFY_EVENTS,
  type NotifyEvent,
  SLACK_SENDER_DEFAULT,
} from '@herald/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { assertFields, invalidField } from '../http/errors.js';
import { isLanguage } from '../http/language.js';
import { decryptSecret, encryptSecret } from '../lib/crypto.js';
import { hookEvents } from './events.js';
import * as q from './queries.js';
import { postToSlack, type SlackBody } from './slack.js';
import { hookText, limitWord } from './texts.js';

export interface HooksDeps {
  db: Db;
  secretKey: Buffer;
  log?: FastifyBaseLogger | undefined;
  /** How long one Slack post may take (the test button waits for it). */
  timeoutMs?: number;
  /** Wakes the worker when a delivery was queued. */
  onQueued?: () => void;
}

const DEFAULT_EVENTS: NotifyEvent[] = ['campaign.finished', 'campaign.autoPaused', 'provider.failing', 'limit.reached'];
export const SLACK_TIMEOUT_MS = 4000;
const HOUR_MS = 3_600_000;

export interface SettingsInput {
  /** Omitted keeps the saved URL; null or empty removes it. */
  slackUrl?: string | null | undefined;
  senderName: string;
  events: string[];
  balanceThreshold: number | null;
}

/** The URL is the credential: only its host and last characters are shown back. */
function maskUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}/…${url.slice(-4)}`;
}

function openUrl(deps: HooksDeps, sealed: string | null): string | null {
  return sealed === null ? null : decryptSecret(sealed, deps.secretKey);
}

/** The account's Slack URL in clear, read at send time so a changed URL applies to pending retries. */
export async function openSlackUrl(db: Db, secretKey: Buffer, accountId: number): Promise<string | null> {
  const sealed = (await q.findSettings(db, accountId))?.slack_url ?? null;
  return sealed === null ? null : decryptSecret(sealed, secretKey);
}

export async function getSettings(deps: HooksDeps, accountId: number) {
  const row = await q.findSettings(deps.db, accountId);
  const url = openUrl(deps, row?.slack_url ?? null);
  return {
    slackUrl: url === null ? null : maskUrl(url),
    configured: url !== null,
    senderName: row?.sender_name ?? SLACK_SENDER_DEFAULT,
    events: row ? (JSON.parse(row.events) as NotifyEvent[]) : DEFAULT_EVENTS,
    balanceThreshold: row?.balance_threshold ?? null,
  };
}

export async function saveSettings(deps: HooksDeps, accountId: number, input: SettingsInput) {
  const slackUrl = input.slackUrl === undefined ? undefined : input.slackUrl?.trim() || null;
  const unknown = input.events.find((event) => !(NOTIFY_EVENTS as readonly string[]).includes(event));
  assertFields({
    slackUrl: checkSlackUrl(slackUrl),
    senderName: checkSenderName(input.senderName),
    events: unknown === undefined ? null : { key: 'hooks.unknownEvent' },
    balanceThreshold:
      input.balanceThreshold !== null && !(input.balanceThreshold >= 0)
        ? { key: 'validation.outOfRange', params: { min: 0, max: '∞' } }
        : null,
  });
  const existing = await q.findSettings(deps.db, accountId);
  const sealed =
    slackUrl === undefined ? (existing?.slack_url ?? null) : slackUrl === null ? null : encryptSecret(slackUrl, deps.secretKey);
  await q.saveSettings(
    deps.db,
    accountId,
    {
      slack_url: sealed,
      sender_name: input.senderName.trim(),
      events: JSON.stringify([...new Set(input.events)]),
      balance_threshold: input.balanceThreshold,
    },
    Date.now(),
  );
  return getSettings(deps, accountId);
}

async function accountLanguage(db: Db, accountId: number): Promise<Language> {
  const row = await db.selectFrom('accounts').select('language').where('id', '=', accountId).executeTakeFirst();
  return isLanguage(row?.language) ? row.language : 'ru';
}

/** Posts a test message now, to the URL in the form or else the saved one, and logs the outcome. */
export async function sendTest(
  deps: HooksDeps,
  accountId: number,
  input: { slackUrl?: string | null | undefined; senderName?: string | undefined },
  language: Language,
) {
  const typed = input.slackUrl?.trim() || null;
  if (typed !== null) {
    const failure = checkSlackUrl(typed);
    if (failure) throw invalidField('slackUrl', failure);
  }
  const row = await q.findSettings(deps.db, accountId);
  const url = typed ?? openUrl(deps, row?.slack_url ?? null);
  if (url === null) throw invalidField('slackUrl', { key: 'hooks.notConfigured' });
  const body: SlackBody = {
    text: hookText(language, 'test'),
    username: input.senderName?.trim() || row?.sender_name || SLACK_SENDER_DEFAULT,
  };
  const outcome = await postToSlack(url, body, deps.timeoutMs ?? SLACK_TIMEOUT_MS);
  await q.insertFinishedDelivery(deps.db, accountId, JSON.stringify(body), outcome, Date.now());
  return outcome;
}

export async function listDeliveries(deps: HooksDeps, accountId: number, page: number, size: number) {
  const [rows, total] = await Promise.all([
    q.listDeliveries(deps.db, accountId, page, size),
    q.countDeliveries(deps.db, accountId),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      id: Number(row.id),
      event: row.event,
      text: (JSON.parse(row.payload) as SlackBody).text,
      status: row.status as 'pending' | 'sent' | 'failed',
      attempts: Number(row.attempts),
      responseStatus: row.response_status === null ? null : Number(row.response_status),
      error: row.last_error,
      createdAt: new Date(Number(row.created_at)).toISOString(),
      nextAttemptAt: row.status === 'pending' ? new Date(Number(row.next_attempt_at)).toISOString() : null,
      finishedAt: row.finished_at === null ? null : new Date(Number(row.finished_at)).toISOString(),
    })),
  };
}

/**
 * Queues a Slack post if the account has a URL and wants this event; the URL is read at send time.
 * The text is fixed now on purpose: it tells the event as it was, a retry posts the same words, and the delivery log shows what Slack got.
 */
export async function enqueue(
  deps: HooksDeps,
  accountId: number,
  event: NotifyEvent,
  dedupeKey: string,
  params: Record<string, string | number>,
): Promise<EnqueueOutcome> {
  const row = await q.findSettings(deps.db, accountId);
  if (!row?.slack_url || !(JSON.parse(row.events) as string[]).includes(event)) return 'unwanted';
  const language = await accountLanguage(deps.db, accountId);
  const body: SlackBody = { text: hookText(language, event, params), username: row.sender_name };
  const queued = await q.insertDelivery(deps.db, { accountId, event, dedupeKey, payload: JSON.stringify(body) }, Date.now());
  if (!queued) return 'duplicate';
  deps.onQueued?.();
  return 'queued';
}

/** unwanted: the account has no URL or does not want the event (it may later, so the key is not remembered). */
export type EnqueueOutcome = 'queued' | 'duplicate' | 'unwanted';

/** Keys of occurrences already queued by this process, so repeats (every batch past a spent limit) skip the database. */
const REMEMBERED_KEYS = 5000;

function dayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Subscribes this app to the engine's events; answers the unsubscribe. */
export function listen(deps: HooksDeps): () => void {
  const run = (what: string, work: () => Promise<unknown>) =>
    void work().catch((error: unknown) => deps.log?.error({ err: error, event: what }, 'queuing a notification failed'));
  const remembered = new Set<string>();
  const once = async (key: string, work: () => Promise<EnqueueOutcome | undefined>) => {
    if (remembered.has(key)) return;
    const outcome = await work();
    if (outcome !== 'queued' && outcome !== 'duplicate') return;
    remembered.add(key);
    // Oldest first out: a Set iterates in insertion order.
    if (remembered.size > REMEMBERED_KEYS) remembered.delete(remembered.values().next().value as string);
  };
  const offs = [
    hookEvents.on('campaign.started', (e) =>
      run('campaign.started', () =>
        enqueue(deps, e.accountId, 'campaign.started', `campaign.started:${e.campaignId}`, { name: e.name, id: e.campaignId }),
      ),
    ),
    hookEvents.on('campaign.finished', (e) =>
      run('campaign.finished', async () => {
        const totals = await q.campaignTotals(deps.db, e.accountId, e.campaignId);
        await enqueue(deps, e.accountId, 'campaign.finished', `campaign.finished:${e.campaignId}`, {
          name: e.name,
          id: e.campaignId,
          ...totals,
        });
      }),
    ),
    hookEvents.on('campaign.autoPaused', (e) =>
      run('campaign.autoPaused', () =>
        // A campaign can be resumed and paused again: one notice per pause.
        enqueue(deps, e.accountId, 'campaign.autoPaused', `campaign.autoPaused:${e.campaignId}:${Date.now()}`, {
          name: e.name,
          id: e.campaignId,
          failed: e.failed,
          settled: e.settled,
        }),
      ),
    ),
    hookEvents.on('provider.failing', (e) =>
      run('provider.failing', async () => {
        // The breaker reopens every half minute while a provider is down: one notice per config per hour.
        const key = `provider.failing:${e.configId}:${Math.floor(Date.now() / HOUR_MS)}`;
        await once(key, async () => {
          const config = await q.findConfigOwner(deps.db, e.configId);
          if (!config) return undefined;
          return enqueue(deps, Number(config.account_id), 'provider.failing', key, { config: config.name, failures: e.failures });
        });
      }),
    ),
    hookEvents.on('limit.reached', (e) =>
      run('limit.reached', async () => {
        const key = `limit.reached:${e.configId}:${e.period}`;
        await once(key, async () => {
          const config = await q.findConfigOwner(deps.db, e.configId);
          if (!config) return undefined;
          const accountId = Number(config.account_id);
          const language = await accountLanguage(deps.db, accountId);
          return enqueue(deps, accountId, 'limit.reached', key, { config: config.name, limit: limitWord(language, e.limit) });
        });
      }),
    ),
    hookEvents.on('balance.checked', (e) =>
      run('balance.checked', async () => {
        // At most one low-balance notice per config a day.
        const key = `balance.low:${e.configId}:${dayOf(Date.now())}`;
        await once(key, async () => {
          const threshold = (await q.findSettings(deps.db, e.accountId))?.balance_threshold ?? null;
          if (threshold === null || !(e.amount < threshold)) return undefined;
          const config = await q.findConfigOwner(deps.db, e.configId);
          if (!config || Number(config.account_id) !== e.accountId) return undefined;
          return enqueue(deps, e.accountId, 'balance.low', key, {
            config: config.name,
            amount: e.amount,
            currency: e.currency ?? '',
            threshold,
          });
        });
      }),
    ),
  ];
  return () => {
    for (const off of offs) off();
  };
}
