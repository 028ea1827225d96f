/** All SQL of campaigns: the campaign rows, their recipients and the materialisation into the ledger. */
import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { LIMIT_WAIT_DETAILS } from '../engine/limits.js';
import { applyRollupDeltas, countInto } from '../messages/ledger.js';
import type { CampaignsTable } from './tables.js';

/** Campaign rows with the names of their list and template, for the console to show. */
function campaignsWithNames(db: Db, accountId: number) {
  return db
    .selectFrom('campaigns')
    .leftJoin('contact_lists', 'contact_lists.id', 'campaigns.list_id')
    .leftJoin('templates', 'templates.id', 'campaigns.template_id')
    .leftJoin('templates as fallback_templates', 'fallback_templates.id', 'campaigns.fallback_template_id')
    .selectAll('campaigns')
    .select([
      'contact_lists.name as list_name',
      'templates.name as template_name',
      'fallback_templates.name as fallback_template_name',
    ])
    .where('campaigns.account_id', '=', accountId);
}

export function findCampaign(db: Db, accountId: number, id: number) {
  return campaignsWithNames(db, accountId).where('campaigns.id', '=', id).executeTakeFirst();
}

export type CampaignRow = NonNullable<Awaited<ReturnType<typeof findCampaign>>>;

export function listCampaigns(db: Db, accountId: number, options: { state?: string | undefined; limit: number; offset: number }) {
  let query = campaignsWithNames(db, accountId);
  if (options.state) query = query.where('campaigns.state', '=', options.state);
  return query.orderBy('campaigns.id', 'desc').limit(options.limit).offset(options.offset).execute();
}

export async function countCampaigns(db: Db, accountId: number, state?: string): Promise<number> {
  let query = db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (state) query = query.where('state', '=', state);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Counts per status from the rollup, so a million-message campaign costs a handful of rows. */
export async function statusCounts(db: Db, campaignIds: number[]): Promise<Map<number, Record<string, number>>> {
  const counts = new Map<number, Record<string, number>>();
  if (campaignIds.length === 0) return counts;
  const rows = await db
    .selectFrom('message_rollup')
    .select(['campaign_id', 'status', (eb) => eb.fn.sum<number>('count').as('n')])
    .where('campaign_id', 'in', campaignIds)
    .groupBy(['campaign_id', 'status'])
    .execute();
  for (const row of rows) {
    const n = Number(row.n);
    if (n === 0) continue;
    const entry = counts.get(Number(row.campaign_id)) ?? {};
    entry[row.status] = n;
    counts.set(Number(row.campaign_id), entry);
  }
  return counts;
}

/**
 * The active configs a campaign's messages may go through, in the engine's failover order: its config, its group's by
 * priority, or every one of its channel, the account's default first.
 */
export async function routeConfigs(
  db: Db,
  accountId: number,
  campaign: { channel: string; groupId?: number | null | undefined; configId?: number | null | undefined },
) {
  let query = db
    .selectFrom('provider_configs')
    .leftJoin('provider_balances', 'provider_balances.config_id', 'provider_configs.id')
    .select([
      'provider_configs.id',
      'provider_configs.name',
      'provider_configs.settings',
      'provider_configs.limit_per_day',
      'provider_configs.limit_per_month',
      'provider_balances.amount as balance',
      'provider_balances.currency',
    ])
    .where('provider_configs.account_id', '=', accountId)
    .where('provider_configs.category', '=', campaign.channel)
    .where('provider_configs.active', '=', 1);
  if (campaign.groupId) {
    query = query
      .innerJoin('provider_group_configs', 'provider_group_configs.config_id', 'provider_configs.id')
      .where('provider_group_configs.group_id', '=', campaign.groupId)
      .orderBy('provider_group_configs.priority');
  } else if (campaign.configId) query = query.where('provider_configs.id', '=', campaign.configId);
  else {
    // Without a route the engine tries the account's default config for the channel first (engine/routing.ts).
    query = query
      .leftJoin('user_provider_options', (join) =>
        join
          .onRef('user_provider_options.config_id', '=', 'provider_configs.id')
          .on('user_provider_options.account_id', '=', accountId),
      )
      .orderBy((eb) => eb.case().when('user_provider_options.config_id', 'is not', null).then(0).else(1).end());
  }
  return (await query.orderBy('provider_configs.id').execute()).map((row) => ({
    id: Number(row.id),
    name: row.name,
    pricePerPart: priceOf(row.settings),
    balance: row.balance === null ? null : Number(row.balance),
    currency: row.currency,
    limitPerDay: row.limit_per_day === null ? null : Number(row.limit_per_day),
    limitPerMonth: row.limit_per_month === null ? null : Number(row.limit_per_month),
  }));
}

function priceOf(settings: string): number | null {
  const price = (JSON.parse(settings) as { pricePerPart?: unknown }).pricePerPart;
  return typeof price === 'number' ? price : null;
}

/** Whether another campaign of the account (not `exceptId`) carries this name. */
export async function campaignNamed(db: Db, accountId: number, name: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom('campaigns').select('id').where('account_id', '=', accountId).where('name', '=', name);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** The campaign messages a spent day or month limit holds back: which limit, and when the first of them is due again. */
export interface LimitWait {
  limit: 'day' | 'month';
  until: number;
}

/** Per sending or paused campaign, its messages held back by a spent limit (one seek of the due index each). */
export async function limitWaits(db: Db, campaigns: { id: number; state: string }[], now = Date.now()) {
  const waits = new Map<number, LimitWait>();
  for (const campaign of campaigns) {
    if (campaign.state !== 'sending' && campaign.state !== 'paused') continue;
    const row = await db
      .selectFrom('messages')
      .select(['detail', 'next_attempt_at'])
      .where('campaign_id', '=', campaign.id)
      .where('lane', '=', 1)
      .where(sql<boolean>`status in ('unsent', 'resending')`)
      .where('next_attempt_at', '>', now)
      .where('detail', 'in', Object.values(LIMIT_WAIT_DETAILS))
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    if (row) {
      const limit = row.detail === LIMIT_WAIT_DETAILS.month ? 'month' : 'day';
      waits.set(campaign.id, { limit, until: Number(row.next_attempt_at) });
    }
  }
  return waits;
}

export interface CampaignValues {
  name: string;
  channel: string;
  list_id: number;
  template_id: number;
  group_id: number | null;
  config_id: number | null;
  fallback_template_id: number | null;
  fallback_group_id: number | null;
  fallback_config_id: number | null;
  unread_after_hours?: number;
}

export async function insertCampaign(db: Db, accountId: number, values: CampaignValues, now: number): Promise<number> {
  const row = await db
    .insertInto('campaigns')
    .values({
      ...values,
      account_id: accountId,
      state: 'draft',
      scheduled_at: null,
      started_at: null,
      finished_at: null,
      detail: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Saves a draft or scheduled campaign, which leaves it a draft: a scheduled one is off its schedule until started again,
 * so nothing the user has not confirmed goes out. Answers false when it had started meanwhile.
 */
export async function updateCampaign(
  db: Db,
  accountId: number,
  id: number,
  values: Partial<CampaignValues>,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('campaigns')
    .set({ ...values, state: 'draft', scheduled_at: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('state', 'in', ['draft', 'scheduled'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Moves a campaign between states only from the state the caller expects; answers whether it moved. */
export async function moveCampaign(
  db: Db,
  id: number,
  from: readonly string[],
  to: string,
  extra: Partial<{
    scheduled_at: number | null;
    started_at: number;
    finished_at: number;
    detail: string | null;
    detail_params: string | null;
  }> = {},
): Promise<boolean> {
  const result = await db
    .updateTable('campaigns')
    .set({ state: to, updated_at: Date.now(), ...extra })
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteCampaign(db: Db, accountId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('campaigns').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function recipientColumn(channel: string): 'email' | 'phone' {
  return channel === 'EMAIL' ? 'email' : 'phone';
}

/** The list's contacts a campaign of this channel reaches: active, with an address for the channel. */
function eligibleContacts(db: Db, accountId: number, listId: number, channel: string) {
  return db
    .selectFrom('contacts')
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .where('status', '=', 'active')
    .where(recipientColumn(channel), 'is not', null);
}

export async function countRecipients(db: Db, accountId: number, listId: number, channel: string) {
  const eligible = await eligibleContacts(db, accountId, listId, channel)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const all = await db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('list_id', '=', listId)
    .executeTakeFirstOrThrow();
  return { recipients: Number(eligible.n), suppressed: Number(all.n) - Number(eligible.n) };
}

export function firstRecipient(db: Db, accountId: number, listId: number, channel: string) {
  return eligibleContacts(db, accountId, listId, channel)
    .select(['id', 'name', 'email', 'phone', 'language', 'time_zone', 'attributes'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** A typed literal, so PostgreSQL knows each constant's type inside INSERT … SELECT. */
function literal(value: number | string | null, type: 'bigint' | 'integer' | 'text') {
  return value === null ? sql<null>`null` : sql`cast(${value} as ${sql.raw(type)})`;
}

/**
 * Materialises the next chunk of a campaign's recipients as unsent messages, in contact-id order, and
 * moves the campaign's cursor in the same transaction; answers how many it added (0 when done).
 */
export async function materializeChunk(
  db: Db,
  campaign: Selectable<CampaignsTable>,
  chunk: number,
  now = Date.now(),
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const accountId = Number(campaign.account_id);
    const listId = Number(campaign.list_id);
    const cursor = Number(campaign.materialized_to);
    const column = recipientColumn(campaign.channel);
    const boundary = await eligibleContacts(trx, accountId, listId, campaign.channel)
      .select('id')
      .where('id', '>', cursor)
      .orderBy('id')
      .limit(1)
      .offset(chunk - 1)
      .executeTakeFirst();
    let source = eligibleContacts(trx, accountId, listId, campaign.channel).where('id', '>', cursor);
    if (boundary) source = source.where('id', '<=', Number(boundary.id));
    const inserted = await trx
      .insertInto('messages')
      .columns([
        'account_id',
        'campaign_id',
        'lane',
        'channel',
        'recipient',
        'contact_id',
        'template_id',
        'route_group_id',
        'route_config_id',
        'status',
        'attempts',
        'next_attempt_at',
        'locale',
        'created_at',
        'updated_at',
      ])
      .expression(
        source.select([
          literal(accountId, 'bigint').as('account_id'),
          literal(Number(campaign.id), 'bigint').as('campaign_id'),
          literal(1, 'integer').as('lane'),
          literal(campaign.channel, 'text').as('channel'),
          sql<string>`${sql.ref(column)}`.as('recipient'),
          'id',
          literal(campaign.template_id === null ? null : Number(campaign.template_id), 'bigint').as('template_id'),
          literal(campaign.group_id === null ? null : Number(campaign.group_id), 'bigint').as('route_group_id'),
          literal(campaign.config_id === null ? null : Number(campaign.config_id), 'bigint').as('route_config_id'),
          literal('unsent', 'text').as('status'),
          literal(0, 'integer').as('attempts'),
          literal(now, 'bigint').as('next_attempt_at'),
          'language',
          literal(now, 'bigint').as('created_at'),
          literal(now, 'bigint').as('updated_at'),
        ]),
      )
      .executeTakeFirst();
    const added = Number(inserted.numInsertedOrUpdatedRows ?? 0);
    const last = boundary
      ? Number(boundary.id)
      : Number(
          (
            await trx
              .selectFrom('messages')
              .select((eb) => eb.fn.max('contact_id').as('last'))
              .where('campaign_id', '=', Number(campaign.id))
              .executeTakeFirstOrThrow()
          ).last ?? cursor,
        );
    const deltas = new Map<string, number>();
    if (added > 0) {
      countInto(
        deltas,
        {
          id: 0,
          accountId,
          campaignId: Number(campaign.id),
          channel: campaign.channel,
          createdAt: now,
          status: 'unsent',
          configId: null,
          templateId: campaign.template_id === null ? null : Number(campaign.template_id),
        },
        null,
        'unsent',
        added,
      );
      await applyRollupDeltas(trx, deltas);
    }
    await trx
      .updateTable('campaigns')
      .set((eb) => ({ total: eb('total', '+', added), materialized_to: last, materialized: boundary ? 0 : 1, updated_at: now }))
      .where('id', '=', Number(campaign.id))
      .execute();
    return added;
  });
}

export async function hasPendingMessages(db: Db, campaignId: number): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('campaign_id', '=', campaignId)
    .where('status', 'in', ['unsent', 'processing', 'resending'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function campaignMessages(
  db: Db,
  accountId: number,
  campaignId: number,
  options: { status?: string | undefined; limit: number; offset: number },
) {
  let query = db
    .selectFrom('messages')
    .leftJoin('provider_configs', 'provider_configs.id', 'messages.config_id')
    .select([
      'messages.id',
      'messages.recipient',
      'messages.status',
      'messages.attempts',
      'messages.detail',
      'messages.provider_message_id',
      'messages.locale',
      'messages.updated_at',
      'messages.created_at',
      'provider_configs.name as config_name',
    ])
    .where('messages.account_id', '=', accountId)
    .where('messages.campaign_id', '=', campaignId);
  if (options.status) query = query.where('messages.status', '=', options.status);
  return query.orderBy('messages.id').limit(options.limit).offset(options.offset).execute();
}

export function findMessageForTracking(db: Db, messageId: number) {
  return db
    .selectFrom('messages')
    .select(['id', 'account_id', 'campaign_id', 'channel', 'created_at', 'status', 'config_id', 'contact_id'])
    .where('id', '=', messageId)
    .executeTakeFirst();
}

/** Moves an active contact to unsubscribed or bounced, keeping its list's counts in step. */
export async function suppressContact(db: Db, contactId: number, status: 'unsubscribed' | 'bounced'): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const contact = await trx.selectFrom('contacts').select(['list_id', 'status']).where('id', '=', contactId).executeTakeFirst();
    if (!contact || contact.status === status || contact.status === 'blocked') return false;
    await trx.updateTable('contacts').set({ status, updated_at: Date.now() }).where('id', '=', contactId).execute();
    const counts = { unsubscribed: 'unsubscribed_count', bounced: 'bounced_count' } as const;
    await trx
      .updateTable('contact_lists')
      .set((eb) => ({
        [counts[status]]: eb(counts[status], '+', 1),
        ...(contact.status !== 'active'
          ? { [counts[contact.status as keyof typeof counts]]: eb(counts[contact.status as keyof typeof counts], '-', 1) }
          : {}),
      }))
      .where('id', '=', Number(contact.list_id))
      .execute();
    return true;
  });
}
