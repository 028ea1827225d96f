/** Campaigns of one account: create, check, start or schedule, pause, resume, cancel, duplicate, read progress. */

import { DEFAULT_PAGE_SIZE, type ErrorKey, type Language, smsSegments } from '@herald/shared';
import { errorText } from '@herald/shared/error-messages';
import { detailText } from '@herald/shared/message-details';
import type { Db } from '../db/database.js';
import { headroom } from '../engine/limits.js';
import { hookEvents } from '../hooks/events.js';
import { AppError, type FieldFailure, invalidField, invalidFields, notFound } from '../http/errors.js';
import { variableValues } from '../templates/queries.js';
import { compileTemplate } from '../templates/render.js';
import * as q from './queries.js';

export interface CampaignsDeps {
  db: Db;
  /** Wakes the sending loop when a campaign starts or resumes. */
  notify: () => void;
}

export interface CampaignInput {
  name: string;
  channel: 'EMAIL' | 'SMS';
  listId: number;
  templateName: string;
  groupId?: number | null | undefined;
  configId?: number | null | undefined;
  /** Messages their own channel cannot deliver go to the other channel with this template (null: no fallback). */
  fallback?:
    | { templateName: string; groupId?: number | null | undefined; configId?: number | null | undefined }
    | null
    | undefined;
  unreadAfterHours?: number | undefined;
}

const otherChannel = (channel: string) => (channel === 'EMAIL' ? 'SMS' : 'EMAIL');

/** The reason a campaign is in its state, in the reader's language. */
function stateReason(row: q.CampaignRow, language: Language): string | null {
  if (row.detail === null) return null;
  const params = row.detail_params === null ? {} : (JSON.parse(row.detail_params) as Record<string, number | string>);
  return errorText(row.detail as ErrorKey, language, params);
}

function present(row: q.CampaignRow, language: Language, counts: Record<string, number> = {}, wait?: q.LimitWait) {
  return {
    id: Number(row.id),
    name: row.name,
    channel: row.channel,
    state: row.state,
    listId: row.list_id === null ? null : Number(row.list_id),
    listName: row.list_name,
    templateId: row.template_id === null ? null : Number(row.template_id),
    templateName: row.template_name,
    groupId: row.group_id === null ? null : Number(row.group_id),
    configId: row.config_id === null ? null : Number(row.config_id),
    fallback:
      row.fallback_template_id === null
        ? null
        : {
            channel: otherChannel(row.channel) as 'EMAIL' | 'SMS',
            templateId: Number(row.fallback_template_id),
            templateName: row.fallback_template_name,
            groupId: row.fallback_group_id === null ? null : Number(row.fallback_group_id),
            configId: row.fallback_config_id === null ? null : Number(row.fallback_config_id),
          },
    unreadAfterHours: Number(row.unread_after_hours),
    scheduledAt: row.scheduled_at === null ? null : Number(row.scheduled_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    total: Number(row.total),
    suppressed: Number(row.suppressed),
    detail: stateReason(row, language),
    counts,
    waitingForLimit: wait ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

async function requireCampaign(db: Db, accountId: number, id: number): Promise<q.CampaignRow> {
  const row = await q.findCampaign(db, accountId, id);
  if (!row) throw notFound();
  return row;
}

/**
 * The checks of the wizard: a name no other campaign of the account has; an existing, non-empty list; a template of
 * the channel; a route with an active config. `ownId`: the campaign being edited.
 */
async function checkInput(db: Db, accountId: number, input: CampaignInput, ownId?: number) {
  const failures: FieldFailure[] = [];
  const name = input.name.trim();
  if (!name) failures.push({ field: 'name', key: 'validation.mandatory' });
  else if (await q.campaignNamed(db, accountId, name, ownId)) failures.push({ field: 'name', key: 'validation.nameExists' });
  const list = await db
    .selectFrom('contact_lists')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', input.listId)
    .executeTakeFirst();
  if (!list) failures.push({ field: 'listId', key: 'error.notFound' });
  else if ((await q.countRecipients(db, accountId, input.listId, input.channel)).recipients === 0) {
    failures.push({ field: 'listId', key: 'campaigns.emptyList' });
  }
  const template = await db
    .selectFrom('templates')
    .select(['id', 'channel'])
    .where('account_id', '=', accountId)
    .where('name', '=', input.templateName)
    .executeTakeFirst();
  if (!template) failures.push({ field: 'templateName', key: 'error.notFound' });
  else if (template.channel !== input.channel) failures.push({ field: 'templateName', key: 'campaigns.templateChannel' });
  const routeFailure = await checkRoute(db, accountId, input);
  if (routeFailure) failures.push(routeFailure);
  const fallback = input.fallback ? await checkFallback(db, accountId, input.channel, input.fallback, failures) : null;
  if (failures.length > 0) throw invalidFields(failures);
  return {
    name,
    channel: input.channel,
    list_id: input.listId,
    template_id: Number(template!.id),
    group_id: input.groupId ?? null,
    config_id: input.groupId ? null : (input.configId ?? null),
    fallback_template_id: fallback?.templateId ?? null,
    fallback_group_id: fallback?.groupId ?? null,
    fallback_config_id: fallback?.configId ?? null,
    ...(input.unreadAfterHours !== undefined ? { unread_after_hours: input.unreadAfterHours } : {}),
  };
}

/** The fallback's template must be of the other channel, and that channel needs an active config on its route. */
async function checkFallback(
  db: Db,
  accountId: number,
  channel: 'EMAIL' | 'SMS',
  fallback: NonNullable<CampaignInput['fallback']>,
  failures: FieldFailure[],
) {
  const other = otherChannel(channel) as 'EMAIL' | 'SMS';
  const template = await db
    .selectFrom('templates')
    .select(['id', 'channel'])
    .where('account_id', '=', accountId)
    .where('name', '=', fallback.templateName)
    .executeTakeFirst();
  if (!template) failures.push({ field: 'fallback.templateName', key: 'error.notFound' });
  else if (template.channel !== other) failures.push({ field: 'fallback.templateName', key: 'campaigns.fallbackChannel' });
  if (
    (await q.routeConfigs(db, accountId, { channel: other, groupId: fallback.groupId, configId: fallback.configId })).length === 0
  ) {
    failures.push({ field: fallback.groupId ? 'fallback.groupId' : 'fallback.configId', key: 'campaigns.noActiveConfig' });
  }
  return template
    ? {
        templateId: Number(template.id),
        groupId: fallback.groupId ?? null,
        configId: fallback.groupId ? null : (fallback.configId ?? null),
      }
    : null;
}

/** The chosen group or config must be the account's and of the campaign's channel, with an active config on it. */
async function checkRoute(
  db: Db,
  accountId: number,
  input: Pick<CampaignInput, 'channel' | 'groupId' | 'configId'>,
): Promise<FieldFailure | null> {
  const field = input.groupId ? 'groupId' : 'configId';
  const id = input.groupId || input.configId;
  const chosen = id
    ? await db
        .selectFrom(input.groupId ? 'provider_groups' : 'provider_configs')
        .select('category')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()
    : null;
  if (chosen === undefined) return { field, key: 'error.notFound' };
  if (chosen && chosen.category !== input.channel) return { field, key: 'campaigns.configChannel' };
  return (await q.routeConfigs(db, accountId, input)).length > 0 ? null : { field, key: 'campaigns.noActiveConfig' };
}

export async function createCampaign(deps: CampaignsDeps, accountId: number, input: CampaignInput, language: Language) {
  const values = await checkInput(deps.db, accountId, input);
  const id = await q.insertCampaign(deps.db, accountId, values, Date.now());
  return getCampaign(deps, accountId, id, language);
}

export async function updateCampaign(
  deps: CampaignsDeps,
  accountId: number,
  id: number,
  input: CampaignInput,
  language: Language,
) {
  const row = await requireCampaign(deps.db, accountId, id);
  if (!['draft', 'scheduled'].includes(row.state)) throw new AppError(409, 'campaigns.notEditable');
  const values = await checkInput(deps.db, accountId, input, id);
  if (!(await q.updateCampaign(deps.db, accountId, id, values, Date.now()))) throw new AppError(409, 'campaigns.notEditable');
  return getCampaign(deps, accountId, id, language);
}

export async function getCampaign(deps: CampaignsDeps, accountId: number, id: number, language: Language) {
  const row = await requireCampaign(deps.db, accountId, id);
  const wait = (await q.limitWaits(deps.db, [{ id, state: row.state }])).get(id);
  return present(row, language, (await q.statusCounts(deps.db, [id])).get(id), wait);
}

export async function listCampaigns(
  deps: CampaignsDeps,
  accountId: number,
  query: { state?: string | undefined; page: number; size: number },
  language: Language,
) {
  const rows = await q.listCampaigns(deps.db, accountId, {
    state: query.state,
    limit: query.size,
    offset: (query.page - 1) * query.size,
  });
  const counts = await q.statusCounts(
    deps.db,
    rows.map((row) => Number(row.id)),
  );
  const waits = await q.limitWaits(
    deps.db,
    rows.map((row) => ({ id: Number(row.id), state: row.state })),
  );
  return {
    total: await q.countCampaigns(deps.db, accountId, query.state),
    items: rows.map((row) => present(row, language, counts.get(Number(row.id)), waits.get(Number(row.id)))),
  };
}

/** The wizard's last step: who will receive it, who is left out, and for SMS the parts each message takes and their cost. */
export async function checkCampaign(deps: CampaignsDeps, accountId: number, id: number) {
  const row = await requireCampaign(deps.db, accountId, id);
  const { recipients, suppressed } = await q.countRecipients(deps.db, accountId, Number(row.list_id), row.channel);
  let smsParts: number | null = null;
  if (row.channel === 'SMS') {
    const template = await deps.db
      .selectFrom('templates')
      .selectAll()
      .where('id', '=', Number(row.template_id))
      .executeTakeFirst();
    const contact = await q.firstRecipient(deps.db, accountId, Number(row.list_id), row.channel);
    if (template && contact) {
      const output = compileTemplate({ channel: 'SMS', subject: '', html: '', text: '', smsText: template.sms_text })({
        contact: {
          id: Number(contact.id),
          name: contact.name,
          email: contact.email,
          phone: contact.phone,
          language: contact.language,
          timeZone: contact.time_zone,
          attributes: contact.attributes ? JSON.parse(contact.attributes) : {},
        },
        vars: await variableValues(deps.db, accountId),
      });
      smsParts = smsSegments(output.smsText).parts;
    }
  }
  const route = {
    channel: row.channel,
    groupId: row.group_id && Number(row.group_id),
    configId: row.config_id && Number(row.config_id),
  };
  const configs = await q.routeConfigs(deps.db, accountId, route);
  const estimatedParts = smsParts === null ? null : smsParts * recipients;
  return {
    recipients,
    suppressed,
    smsParts,
    estimatedParts,
    estimatedCost: estimatedParts === null ? null : costAt(configs[0], estimatedParts),
    limitHeadroom: await headroom(deps.db, configs),
  };
}

/** The cost of the parts at the config expected to carry them (the first in failover order), beside its last balance. */
function costAt(config: Awaited<ReturnType<typeof q.routeConfigs>>[number] | undefined, parts: number) {
  if (!config || config.pricePerPart === null) return null;
  return {
    configId: config.id,
    configName: config.name,
    amount: Math.round(parts * config.pricePerPart * 10_000) / 10_000,
    balance: config.balance,
    currency: config.currency,
  };
}

/** Sends now, or at `scheduledAt` (epoch ms; the console converts from the account's time zone). */
export async function startCampaign(
  deps: CampaignsDeps,
  accountId: number,
  id: number,
  scheduledAt: number | null | undefined,
  language: Language,
) {
  const row = await requireCampaign(deps.db, accountId, id);
  await checkInput(
    deps.db,
    accountId,
    {
      name: row.name,
      channel: row.channel as 'EMAIL' | 'SMS',
      listId: Number(row.list_id),
      templateName:
        (await deps.db.selectFrom('templates').select('name').where('id', '=', Number(row.template_id)).executeTakeFirst())
          ?.name ?? '',
      groupId: row.group_id === null ? null : Number(row.group_id),
      configId: row.config_id === null ? null : Number(row.config_id),
      fallback:
        row.fallback_template_id === null
          ? null
          : {
              templateName: row.fallback_template_name ?? '',
              groupId: row.fallback_group_id === null ? null : Number(row.fallback_group_id),
              configId: row.fallback_config_id === null ? null : Number(row.fallback_config_id),
            },
    },
    id,
  );
  const now = Date.now();
  // A moment in the past (a slow click, clocks a little apart) still means now; an hour ago is a mistake.
  if (scheduledAt && scheduledAt < now - SCHEDULE_GRACE_MS)
    throw invalidField('scheduledAt', { key: 'campaigns.scheduleInPast' });
  if (scheduledAt && scheduledAt > now) {
    if (!(await q.moveCampaign(deps.db, id, ['draft', 'scheduled'], 'scheduled', { scheduled_at: scheduledAt }))) {
      throw new AppError(409, 'campaigns.notEditable');
    }
  } else if (!(await q.moveCampaign(deps.db, id, ['draft', 'scheduled'], 'sending', { scheduled_at: null, started_at: now }))) {
    throw new AppError(409, 'campaigns.notEditable');
  } else hookEvents.emit('campaign.started', { accountId, campaignId: id, name: row.name });
  deps.notify();
  return getCampaign(deps, accountId, id, language);
}

/** How far in the past a schedule may be and still mean "now". */
const SCHEDULE_GRACE_MS = 60_000;

const TRANSITIONS = {
  pause: { from: ['sending'], to: 'paused' },
  resume: { from: ['paused'], to: 'sending' },
  cancel: { from: ['draft', 'scheduled', 'sending', 'paused'], to: 'cancelled' },
} as const;

/** Pause and cancel take effect within a second: a batch still sending 250 ms after its claim looks at its campaigns again. */
export async function changeState(
  deps: CampaignsDeps,
  accountId: number,
  id: number,
  action: keyof typeof TRANSITIONS,
  language: Language,
) {
  await requireCampaign(deps.db, accountId, id);
  const { from, to } = TRANSITIONS[action];
  const extra = to === 'cancelled' ? { finished_at: Date.now() } : {};
  if (!(await q.moveCampaign(deps.db, id, from, to, extra))) throw new AppError(409, 'campaigns.wrongState');
  if (to === 'sending') deps.notify();
  return getCampaign(deps, accountId, id, language);
}

/** What a copy is called in each language: "Spring sale (copy)", then "(copy 2)" and on while taken. */
const COPY_WORD: Record<Language, string> = { en: 'copy', ru: 'копия', uk: 'копія' };

async function copyName(db: Db, accountId: number, name: string, language: Language): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = `${name} (${COPY_WORD[language]}${n === 1 ? '' : ` ${n}`})`;
    if (!(await q.campaignNamed(db, accountId, candidate))) return candidate;
  }
}

export async function duplicateCampaign(deps: CampaignsDeps, accountId: number, id: number, language: Language) {
  const row = await requireCampaign(deps.db, accountId, id);
  const copy = await q.insertCampaign(
    deps.db,
    accountId,
    {
      name: await copyName(deps.db, accountId, row.name, language),
      channel: row.channel,
      list_id: Number(row.list_id),
      template_id: Number(row.template_id),
      group_id: row.group_id === null ? null : Number(row.group_id),
      config_id: row.config_id === null ? null : Number(row.config_id),
      fallback_template_id: row.fallback_template_id === null ? null : Number(row.fallback_template_id),
      fallback_group_id: row.fallback_group_id === null ? null : Number(row.fallback_group_id),
      fallback_config_id: row.fallback_config_id === null ? null : Number(row.fallback_config_id),
      unread_after_hours: Number(row.unread_after_hours),
    },
    Date.now(),
  );
  return getCampaign(deps, accountId, copy, language);
}

export async function deleteCampaign(deps: CampaignsDeps, accountId: number, id: number): Promise<void> {
  const row = await requireCampaign(deps.db, accountId, id);
  if (row.state === 'sending') throw new AppError(409, 'campaigns.wrongState');
  await q.deleteCampaign(deps.db, accountId, id);
}

export async function campaignLog(
  deps: CampaignsDeps,
  accountId: number,
  id: number,
  query: { status?: string | undefined; page: number; size?: number | undefined },
  language: Language,
) {
  await requireCampaign(deps.db, accountId, id);
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  const counts = (await q.statusCounts(deps.db, [id])).get(id) ?? {};
  const total = query.status ? (counts[query.status] ?? 0) : Object.values(counts).reduce((sum, n) => sum + n, 0);
  const rows = await q.campaignMessages(deps.db, accountId, id, {
    status: query.status,
    limit: size,
    offset: (query.page - 1) * size,
  });
  return {
    total,
    items: rows.map((row) => ({
      id: Number(row.id),
      recipient: row.recipient,
      status: row.status,
      attempts: Number(row.attempts),
      providerConfig: row.config_name,
      providerMessage: detailText(row.detail, language),
      providerMessageId: row.provider_message_id,
      locale: row.locale,
      time: Number(row.updated_at),
    })),
  };
}

/** The campaigns a progress stream reports: those running, and those that changed since `since`. */
export async function campaignProgress(deps: CampaignsDeps, accountId: number, since: number) {
  const rows = await deps.db
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('state', 'in', ['sending', 'scheduled', 'paused']), eb('updated_at', '>=', since)]))
    .execute();
  const counts = await q.statusCounts(
    deps.db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    state: row.state,
    total: Number(row.total),
    counts: counts.get(Number(row.id)) ?? {},
  }));
}
