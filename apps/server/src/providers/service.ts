/** Provider configs, groups, balances and default options of one account. */
import { MAX_BALANCE_CONFIGS, UNSELECTED_CONFIG_PRIORITY } from '@herald/shared';
import { CHANNEL_DEFINITIONS, findChannelDefinition } from '../channels/registry.js';
import { type ChannelDefinition, VERIFY_TIMEOUT_MS, type VerifyResult } from '../channels/types.js';
import { type Db, isUniqueViolation } from '../db/database.js';
import { hookEvents } from '../hooks/events.js';
import { AppError, type FieldFailure, invalidField, invalidFields, notFound } from '../http/errors.js';
import { encryptSecret } from '../lib/crypto.js';
import { type ChannelPool, readSecrets } from './channel-pool.js';
import * as q from './queries.js';
import { checkFilter, checkSettings, type FilterItem, normaliseFilter } from './settings.js';

export interface ProvidersDeps {
  db: Db;
  pool: ChannelPool;
  secretKey: Buffer;
  /** A config, a group or a default changed: messages waiting for a spent limit may have a way out now. */
  onRoutesChanged?: (accountId: number) => void;
}

const BALANCE_FRESH_MS = 60_000;
const SECRET_MASK = '••••••••';

export interface ConfigInput {
  id?: number | undefined;
  name: string;
  type: string;
  active?: boolean | undefined;
  limitPerDay?: number | null | undefined;
  limitPerMonth?: number | null | undefined;
  filter?: FilterItem[] | undefined;
  settings?: Record<string, unknown> | undefined;
}

export function listTypes() {
  return CHANNEL_DEFINITIONS.map((definition) => ({
    type: definition.type,
    category: definition.category,
    fields: definition.fields.map((field) => ({
      ...field,
      options: field.options ? [...field.options] : undefined,
      secret: field.secret === true || field.kind === 'secret',
    })),
  }));
}

function isSecretField(definition: ChannelDefinition, name: string): boolean {
  return definition.fields.some((field) => field.name === name && (field.secret === true || field.kind === 'secret'));
}

/** The API's view of a config: secrets are never returned, only whether each is set. */
export function presentConfig(row: q.ConfigRow, secretKey: Buffer) {
  const definition = findChannelDefinition(row.type);
  const stored = readSecrets(row, secretKey);
  const secrets: Record<string, { set: boolean; mask: string }> = {};
  for (const field of definition?.fields ?? []) {
    if (isSecretField(definition!, field.name)) {
      secrets[field.name] = { set: Boolean(stored[field.name]), mask: stored[field.name] ? SECRET_MASK : '' };
    }
  }
  return {
    id: Number(row.id),
    providerConfigId: Number(row.id),
    name: row.name,
    type: row.type,
    category: row.category,
    active: row.active === 1,
    limitPerDay: row.limit_per_day === null ? null : Number(row.limit_per_day),
    limitPerMonth: row.limit_per_month === null ? null : Number(row.limit_per_month),
    filter: JSON.parse(row.filter) as FilterItem[],
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    secrets,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function checkLimit(field: string, value: number | null | undefined): FieldFailure | null {
  if (value === null || value === undefined) return null;
  return Number.isInteger(value) && value >= 0 ? null : { field, key: 'validation.invalidValue' };
}

/** A day limit above the month's could never be reached: the month's would stop the sends first. */
function dayAboveMonth({ limitPerDay, limitPerMonth }: Pick<ConfigInput, 'limitPerDay' | 'limitPerMonth'>): boolean {
  return typeof limitPerDay === 'number' && typeof limitPerMonth === 'number' && limitPerDay > limitPerMonth;
}

/** Validates the whole input; nothing is written when any field fails. */
function prepare(deps: ProvidersDeps, input: ConfigInput, existing?: q.ConfigRow) {
  const definition = findChannelDefinition(input.type);
  if (!definition) throw invalidField('type', { key: 'providers.unknownType' });
  const name = input.name.trim();
  const storedSecrets = existing && existing.type === input.type ? readSecrets(existing, deps.secretKey) : {};
  const checked = checkSettings(definition, input.settings ?? {}, storedSecrets);
  const filter = normaliseFilter(input.filter ?? []);
  const failures = [
    ...(name ? [] : [{ field: 'name', key: 'validation.mandatory' } as FieldFailure]),
    ...checked.failures,
    // Countries and operators are read from phone numbers: an e-mail config has nothing to filter by.
    ...(definition.category === 'SMS' || filter.length === 0
      ? checkFilter(filter)
      : [{ field: 'filter', key: 'providers.filterSmsOnly' } as FieldFailure]),
    ...[checkLimit('limitPerDay', input.limitPerDay), checkLimit('limitPerMonth', input.limitPerMonth)].filter((f) => f !== null),
    ...(dayAboveMonth(input) ? [{ field: 'limitPerDay', key: 'providers.dayAboveMonth' } as FieldFailure] : []),
  ];
  if (failures.length > 0) throw invalidFields(failures);
  const values: q.ConfigValues = {
    name,
    type: definition.type,
    category: definition.category,
    active: input.active === false ? 0 : 1,
    settings: JSON.stringify(checked.settings),
    secrets: encryptSecret(JSON.stringify(checked.secrets), deps.secretKey),
    limit_per_day: input.limitPerDay ?? null,
    limit_per_month: input.limitPerMonth ?? null,
    filter: JSON.stringify(filter),
  };
  return { definition, values, settings: { ...checked.settings, ...checked.secrets } };
}

async function requireConfig(db: Db, accountId: number, id: number): Promise<q.ConfigRow> {
  const row = await q.findConfig(db, accountId, id);
  if (!row) throw notFound();
  return row;
}

function nameTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw invalidField('name', { key: 'validation.nameExists' });
  throw error;
}

export async function listConfigs(deps: ProvidersDeps, accountId: number, category?: string) {
  return (await q.listConfigs(deps.db, accountId, category)).map((row) => presentConfig(row, deps.secretKey));
}

export async function getConfig(deps: ProvidersDeps, accountId: number, id: number) {
  return presentConfig(await requireConfig(deps.db, accountId, id), deps.secretKey);
}

export async function createConfig(deps: ProvidersDeps, accountId: number, input: ConfigInput) {
  const { values } = prepare(deps, input);
  const id = await q.insertConfig(deps.db, accountId, values, Date.now()).catch(nameTaken);
  deps.onRoutesChanged?.(accountId);
  return getConfig(deps, accountId, id);
}

export async function updateConfig(deps: ProvidersDeps, accountId: number, id: number, input: ConfigInput) {
  const existing = await requireConfig(deps.db, accountId, id);
  const { values } = prepare(deps, input, existing);
  // Never the same millisecond as before, so live channel instances see the change.
  const now = Math.max(Date.now(), Number(existing.updated_at) + 1);
  await q.updateConfig(deps.db, accountId, id, values, now).catch(nameTaken);
  await deps.pool.forget(id);
  deps.onRoutesChanged?.(accountId);
  return getConfig(deps, accountId, id);
}

export async function deleteConfig(deps: ProvidersDeps, accountId: number, id: number): Promise<void> {
  await requireConfig(deps.db, accountId, id);
  // A group cannot be created without configs (spec 5), nor emptied by deleting its last one.
  const emptied = await q.groupsOnlyWith(deps.db, accountId, id);
  if (emptied.length > 0)
    throw new AppError(409, 'providers.lastInGroup', { groups: emptied.map((name) => `“${name}”`).join(', ') });
  if (!(await q.deleteConfig(deps.db, accountId, id))) throw notFound();
  await deps.pool.forget(id);
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Really connects and authenticates with the given (possibly unsaved) settings; stored secrets fill blanks. */
export async function testConnection(deps: ProvidersDeps, accountId: number, input: ConfigInput): Promise<VerifyResult> {
  const existing = input.id !== undefined ? await requireConfig(deps.db, accountId, input.id) : undefined;
  const { definition, settings } = prepare(deps, { ...input, name: input.name || 'connection test' }, existing);
  const channel = deps.pool.createDetached(definition, settings, {
    id: existing ? Number(existing.id) : 0,
    account_id: accountId,
    category: definition.category,
  });
  try {
    return await withTimeout(channel.verify(), VERIFY_TIMEOUT_MS + 500, 'connection test');
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  } finally {
    await channel.close().catch(() => undefined);
  }
}

/** Balances of at most the first 5 configs; each refreshed from the vendor at most once a minute, and after its config changed. */
export async function balances(deps: ProvidersDeps, accountId: number, ids: number[]) {
  const wanted = [...new Set(ids)].slice(0, MAX_BALANCE_CONFIGS);
  const rows = (await Promise.all(wanted.map((id) => q.findConfig(deps.db, accountId, id)))).filter((row) => row !== undefined);
  const cached = new Map(
    (
      await q.findBalances(
        deps.db,
        accountId,
        rows.map((row) => Number(row.id)),
      )
    ).map((b) => [Number(b.config_id), b]),
  );
  const now = Date.now();
  return Promise.all(
    rows.map(async (row) => {
      const id = Number(row.id);
      let entry = cached.get(id);
      // A config saved since its balance was read may point at another vendor account: that balance is stale.
      if (!entry || now - Number(entry.checked_at) >= BALANCE_FRESH_MS || Number(entry.checked_at) < Number(row.updated_at)) {
        const channel = deps.pool.get(row);
        let amount: string | null = null;
        let currency: string | null = null;
        let error: string | null = null;
        try {
          const balance = channel.balance ? await withTimeout(channel.balance(), VERIFY_TIMEOUT_MS, 'balance') : null;
          if (balance) {
            amount = String(balance.amount);
            currency = balance.currency;
            hookEvents.emit('balance.checked', { accountId, configId: id, amount: balance.amount, currency });
          } else error = 'not supported by this provider';
        } catch (failure) {
          error = (failure as Error).message;
        }
        entry = { config_id: id, account_id: accountId, amount, currency, error, checked_at: now };
        await q.saveBalance(deps.db, entry);
      }
      return {
        providerConfigId: id,
        balance: entry.amount === null ? null : Number(entry.amount),
        currency: entry.currency,
        error: entry.error,
        updatedAt: Number(entry.checked_at),
      };
    }),
  );
}

export async function configCounts(deps: ProvidersDeps, accountId: number) {
  const counts = await q.countConfigsByCategory(deps.db, accountId);
  return ['EMAIL', 'SMS'].map((category) => ({ category, count: counts.find((c) => c.category === category)?.count ?? 0 }));
}

export async function bounceAddress(deps: ProvidersDeps, accountId: number) {
  return { address: (await q.findBounceAddress(deps.db, accountId))?.bounce_address ?? null };
}

export async function setBounceAddress(deps: ProvidersDeps, accountId: number, address: string | null): Promise<void> {
  await q.setBounceAddress(deps.db, accountId, address);
}

export async function providerOptions(deps: ProvidersDeps, accountId: number) {
  return (await q.listProviderOptions(deps.db, accountId)).map((row) => ({
    providerConfigId: Number(row.config_id),
    category: row.category,
  }));
}

export async function setProviderOption(deps: ProvidersDeps, accountId: number, configId: number) {
  const row = await requireConfig(deps.db, accountId, configId);
  await q.setProviderOption(deps.db, accountId, row.category, configId);
  deps.onRoutesChanged?.(accountId);
  return providerOptions(deps, accountId);
}

export interface GroupInput {
  id?: number | undefined;
  name: string;
  category: string;
  configs: { providerConfigId: number; priority?: number | undefined }[];
}

async function presentGroups(db: Db, groups: Awaited<ReturnType<typeof q.listGroups>>) {
  const members = await q.listGroupMembers(
    db,
    groups.map((group) => Number(group.id)),
  );
  return groups.map((group) => ({
    id: Number(group.id),
    name: group.name,
    category: group.category,
    configs: members
      .filter((member) => Number(member.group_id) === Number(group.id))
      .map((member) => ({
        providerConfigId: Number(member.config_id),
        priority: Number(member.priority),
        name: member.name,
        type: member.type,
        active: member.active === 1,
      })),
    createdAt: Number(group.created_at),
    updatedAt: Number(group.updated_at),
  }));
}

export async function listGroups(
  deps: ProvidersDeps,
  accountId: number,
  query: { category?: string | undefined; page: number; size: number },
) {
  const groups = await q.listGroups(deps.db, accountId, {
    category: query.category,
    limit: query.size,
    offset: (query.page - 1) * query.size,
  });
  return { total: await q.countGroups(deps.db, accountId, query.category), items: await presentGroups(deps.db, groups) };
}

export async function groupShortInfo(deps: ProvidersDeps, accountId: number, category?: string) {
  return (await q.listGroups(deps.db, accountId, { category })).map((group) => ({
    id: Number(group.id),
    name: group.name,
    category: group.category,
  }));
}

/** A group needs at least one config, all of its own category and account; order is by priority (unset = 99). */
async function checkGroup(deps: ProvidersDeps, accountId: number, input: GroupInput) {
  const name = input.name.trim();
  const failures: FieldFailure[] = [];
  if (!name) failures.push({ field: 'name', key: 'validation.mandatory' });
  if (input.configs.length === 0) failures.push({ field: 'configs', key: 'groups.noConfigs' });
  const members: { configId: number; priority: number }[] = [];
  for (const [index, selection] of input.configs.entries()) {
    const row = await q.findConfig(deps.db, accountId, selection.providerConfigId);
    if (!row) throw notFound();
    if (row.category !== input.category)
      failures.push({ field: `configs.${index}.providerConfigId`, key: 'groups.wrongCategory' });
    members.push({ configId: Number(row.id), priority: selection.priority ?? UNSELECTED_CONFIG_PRIORITY });
  }
  if (failures.length > 0) throw invalidFields(failures);
  return { name, members };
}

export async function createGroup(deps: ProvidersDeps, accountId: number, input: GroupInput) {
  const { name, members } = await checkGroup(deps, accountId, input);
  const id = await deps.db
    .transaction()
    .execute(async (trx) => {
      const groupId = await q.insertGroup(trx, accountId, name, input.category, Date.now());
      await q.replaceGroupMembers(trx, groupId, members);
      return groupId;
    })
    .catch(nameTaken);
  return getGroup(deps, accountId, id);
}

export async function updateGroup(deps: ProvidersDeps, accountId: number, id: number, input: GroupInput) {
  if (!(await q.findGroup(deps.db, accountId, id))) throw notFound();
  const { name, members } = await checkGroup(deps, accountId, input);
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await q.updateGroup(trx, accountId, id, name, input.category, Date.now());
      await q.replaceGroupMembers(trx, id, members);
    })
    .catch(nameTaken);
  deps.onRoutesChanged?.(accountId);
  return getGroup(deps, accountId, id);
}

export async function getGroup(deps: ProvidersDeps, accountId: number, id: number) {
  const group = await q.findGroup(deps.db, accountId, id);
  if (!group) throw notFound();
  const [presented] = await presentGroups(deps.db, [group]);
  return presented!;
}

export async function deleteGroup(deps: ProvidersDeps, accountId: number, id: number): Promise<void> {
  if (!(await q.deleteGroup(deps.db, accountId, id))) throw notFound();
}

export async function sandboxInbox(
  deps: ProvidersDeps,
  accountId: number,
  query: { category?: string | undefined; page: number; size: number },
) {
  const rows = await q.listSandboxMessages(deps.db, accountId, {
    category: query.category,
    limit: query.size,
    offset: (query.page - 1) * query.size,
  });
  return {
    total: await q.countSandboxMessages(deps.db, accountId, query.category),
    items: rows.map((row) => ({
      id: Number(row.id),
      providerConfigId: Number(row.config_id),
      category: row.category,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      providerMessageId: row.provider_message_id,
      status: row.status,
      createdAt: Number(row.created_at),
    })),
  };
}

/** Sandbox providers for a new account, so its first campaign needs no outside service. */
export async function seedSandboxProviders(deps: ProvidersDeps, accountId: number): Promise<void> {
  const email = await createConfig(deps, accountId, { name: 'Sandbox e-mail', type: 'sandbox-email', settings: {} });
  const sms = await createConfig(deps, accountId, { name: 'Sandbox SMS', type: 'sandbox-sms', settings: {} });
  await q.setProviderOption(deps.db, accountId, 'EMAIL', email.id);
  await q.setProviderOption(deps.db, accountId, 'SMS', sms.id);
}
