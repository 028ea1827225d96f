/** Accounts and sessions: sign-up, log-in with throttling, profile switch, password reset. */

import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import {
  AVATARS,
  checkPassword,
  checkPasswordConfirmation,
  checkUsername,
  DEFAULT_AVATAR,
  type Language,
  PROFILES,
  type Profile,
} from '@herald/shared';
import { findTimeZone, TIME_ZONES } from '@herald/shared/reference';
import type { Db, Dialect } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, assertFields, invalidField } from '../http/errors.js';
import { isLanguage } from '../http/language.js';
import { generatePassword, hashPassword, newToken, verifyPassword } from '../lib/crypto.js';
import { canonicalZone } from '../lib/time-zone.js';
import type { SystemMailer } from '../system-mail/service.js';
import type { AddressThrottle } from './address-throttle.js';
import type { SessionContext } from './guard.js';
import * as q from './queries.js';

const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const LOGIN_MAX_FAILURES = 10;
/** Failures against one address from all IPs together: a caller chooses the X-Forwarded-For its IP is read from. */
const LOGIN_MAX_ADDRESS_FAILURES = 50;
const RESET_TTL_MS = 60 * 60 * 1000;
const RESET_MAILS_PER_HOUR = 5;

export interface AuthDeps {
  db: Db;
  dialect: Dialect;
  /** Where uploads live; the account's files go with the account. */
  dataDir: string;
  mailer: SystemMailer;
  publicUrl: string;
  /** Caps sign-ups per client address. */
  signupThrottle: AddressThrottle;
  /** Runs after sign-up, e.g. to give the account sandbox providers. */
  onAccountCreated?: ((accountId: number) => Promise<void>) | undefined;
}

export interface SignupInput {
  email: string;
  password: string;
  timeZone: { id: string; offset?: number | undefined };
  avatar?: string | undefined;
  role?: string | undefined;
  language?: string | undefined;
}

function isProfile(value: string | undefined): value is Profile {
  return (PROFILES as readonly string[]).includes(value ?? '');
}

async function openSession(db: Db, accountId: number, profile: string): Promise<string> {
  const token = newToken();
  await q.insertSession(db, accountId, token, profile, Date.now());
  return token;
}

export async function signup(deps: AuthDeps, input: SignupInput, clientAddress: string): Promise<{ token: string }> {
  const email = input.email.trim();
  const avatar = input.avatar || DEFAULT_AVATAR;
  const role = input.role ?? 'site';
  assertFields({
    email: checkUsername(email),
    password: checkPassword(input.password),
    role: isProfile(role) ? null : { key: 'validation.roleMissing' },
    'timeZone.id': findTimeZone(input.timeZone.id) ? null : { key: 'validation.unknownTimeZone' },
    avatar: (AVATARS as readonly string[]).includes(avatar) ? null : { key: 'validation.unknownAvatar' },
  });
  const language = input.language && ['ru', 'en', 'uk'].includes(input.language) ? input.language : null;
  await deps.signupThrottle.take(clientAddress);
  const passwordHash = await hashPassword(input.password);
  try {
    const now = Date.now();
    const accountId = await q.insertAccount(
      deps.db,
      { email, passwordHash, timeZoneId: input.timeZone.id, avatar, language, profile: role, isAdmin: false },
      now,
    );
    await deps.onAccountCreated?.(accountId);
    return { token: await openSession(deps.db, accountId, role) };
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidField('email', { key: 'validation.nameExists' });
    throw error;
  }
}

let decoyHash: Promise<string> | undefined;
const decoyPasswordHash = () => (decoyHash ??= hashPassword(generatePassword()));

export async function login(deps: AuthDeps, username: string, password: string, ip: string): Promise<{ token: string }> {
  const email = username.trim().toLowerCase();
  const attemptKey = `${email}|${ip}`;
  const addressKey = `${email}|any`;
  const now = Date.now();
  const failures = await q.countLoginFailures(deps.db, attemptKey, now - LOGIN_WINDOW_MS);
  const addressFailures = await q.countLoginFailures(deps.db, addressKey, now - LOGIN_WINDOW_MS);
  const blocked =
    failures.count >= LOGIN_MAX_FAILURES
      ? failures
      : addressFailures.count >= LOGIN_MAX_ADDRESS_FAILURES
        ? addressFailures
        : null;
  if (blocked) {
    const retryMs = (blocked.oldest ?? now) + LOGIN_WINDOW_MS - now;
    const minutes = Math.max(1, Math.ceil(retryMs / 60_000));
    throw new AppError(429, 'login.tooManyAttempts', { minutes }, [], { 'retry-after': String(Math.ceil(retryMs / 1000)) });
  }
  const account = email ? await q.findAccountByEmail(deps.db, email) : undefined;
  // An unknown address is checked against a decoy hash, so it takes as long to refuse as a wrong password.
  const valid = (await verifyPassword(password, account?.password_hash ?? (await decoyPasswordHash()))) && account !== undefined;
  if (!account || !valid) {
    await q.recordLoginFailure(deps.db, attemptKey, now);
    await q.recordLoginFailure(deps.db, addressKey, now);
    throw new AppError(401, 'login.loginFail');
  }
  await q.clearLoginFailures(deps.db, attemptKey);
  return { token: await openSession(deps.db, Number(account.id), account.profile) };
}

export async function logout(db: Db, session: SessionContext | null): Promise<void> {
  if (session) await q.deleteSession(db, session.sessionId);
}

/** Everything the user-info call answers was read with the session itself: no further query. */
export function userInfo(session: SessionContext) {
  const zone = findTimeZone(session.timeZoneId);
  return {
    username: session.email,
    name: session.displayName ?? session.email,
    avatar: session.avatar,
    roles: session.roles,
    profile: session.profile as Profile,
    timeZone: { id: session.timeZoneId, offset: zone?.offset ?? 0, utc: zone?.utc[0] ?? 'UTC' },
    language: session.language,
  };
}

export async function changePassword(
  db: Db,
  session: SessionContext,
  input: { oldPassword: string; newPassword: string; confirmPassword?: string | undefined },
): Promise<void> {
  const account = await q.findAccountById(db, session.accountId);
  const oldValid = account ? await verifyPassword(input.oldPassword, account.password_hash) : false;
  // Every field's problem at once, so the form can mark them all.
  assertFields({
    oldPassword: input.oldPassword
      ? oldValid
        ? null
        : { key: 'validation.wrongPassword' }
      : { key: 'validation.passwordMissing' },
    newPassword:
      checkPassword(input.newPassword) ??
      (oldValid && input.newPassword === input.oldPassword ? { key: 'validation.samePassword' } : null),
    confirmPassword:
      input.confirmPassword === undefined ? null : checkPasswordConfirmation(input.newPassword, input.confirmPassword),
  });
  await q.updateAccount(db, session.accountId, { password_hash: await hashPassword(input.newPassword) }, Date.now());
  // Other devices must log in again with the new password.
  await q.deleteOtherSessions(db, session.accountId, session.sessionId);
}

export async function changeTimeZone(db: Db, session: SessionContext, id: string): Promise<void> {
  if (!findTimeZone(id)) throw invalidField('id', { key: 'validation.unknownTimeZone' });
  await q.updateAccount(db, session.accountId, { time_zone_id: id }, Date.now());
}

export async function changeAvatar(db: Db, session: SessionContext, avatar: string): Promise<void> {
  const name = avatar.trim();
  if (!(AVATARS as readonly string[]).includes(name)) throw invalidField('avatar', { key: 'validation.unknownAvatar' });
  await q.updateAccount(db, session.accountId, { avatar: name }, Date.now());
}

export const DISPLAY_NAME_MAX = 80;

/** The name shown in the console; an empty one goes back to showing the e-mail. */
export async function changeDisplayName(db: Db, session: SessionContext, name: string): Promise<void> {
  const trimmed = name.trim();
  if (trimmed.length > DISPLAY_NAME_MAX)
    throw invalidField('name', { key: 'validation.tooLong', params: { n: DISPLAY_NAME_MAX } });
  await q.updateAccount(db, session.accountId, { display_name: trimmed || null }, Date.now());
}

/** Deletes the account and all its data once the user has typed its e-mail; every session ends with it. */
export async function deleteAccount(deps: AuthDeps, session: SessionContext, confirmation: string): Promise<void> {
  if (confirmation.trim().toLowerCase() !== session.email.toLowerCase()) {
    throw invalidField('confirmation', { key: 'account.deleteConfirmation' });
  }
  // Herald always keeps someone who can see the account list and feedback.
  if (session.roles.includes('admin') && (await q.countAdmins(deps.db)) <= 1) throw new AppError(409, 'account.lastAdmin');
  const files = await q.accountFiles(deps.db, session.accountId);
  await q.deleteAccountData(deps.db, deps.dialect, session.accountId, session.email);
  const root = path.resolve(deps.dataDir);
  for (const file of files) {
    const absolute = path.resolve(root, file);
    // Stored paths are Herald's own, but a path leaving DATA_DIR is never followed.
    if (!absolute.startsWith(root + path.sep)) continue;
    await rm(absolute, { force: true });
    // A per-record folder (feedback/<id>) goes when empty; shared folders such as imports/ stay.
    const folder = path.dirname(absolute);
    if (path.relative(root, folder).split(path.sep).length >= 2) await rmdir(folder).catch(() => undefined);
  }
}

export async function changeLanguage(db: Db, session: SessionContext, language: string): Promise<void> {
  await q.updateAccount(db, session.accountId, { language }, Date.now());
}

/** A profile switch swaps the token: the old session ends and a new one carries the new roles. */
export async function switchProfile(db: Db, session: SessionContext, profile: Profile): Promise<{ token: string }> {
  const token = await openSession(db, session.accountId, profile);
  await q.deleteSession(db, session.sessionId);
  await q.updateAccount(db, session.accountId, { profile }, Date.now());
  return { token };
}

/** Sends a reset link if the account exists; the answer is the same either way so accounts cannot be probed. */
/** `language`: the one the request asked for, if any; otherwise the mail speaks the account's saved language. */
export async function requestPasswordReset(deps: AuthDeps, email: string, language: Language | null): Promise<void> {
  const account = await q.findAccountByEmail(deps.db, email.trim());
  if (!account) return;
  const now = Date.now();
  // The same throttle table as log-ins: a mailbox gets at most a few reset mails an hour.
  const attemptKey = `reset|${account.email}`;
  if ((await q.countLoginFailures(deps.db, attemptKey, now - RESET_TTL_MS)).count >= RESET_MAILS_PER_HOUR) return;
  await q.recordLoginFailure(deps.db, attemptKey, now);
  const token = newToken();
  await q.insertPasswordReset(deps.db, Number(account.id), token, now + RESET_TTL_MS, now);
  const link = `${deps.publicUrl}/reset?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: account.email,
    ...resetMail(language ?? (isLanguage(account.language) ? account.language : 'en'), link),
  });
}

function resetMail(language: Language, link: string): { subject: string; text: string } {
  const texts = {
    en: ['Herald: reset your password', 'To set a new password, open this link within 1 hour:'],
    ru: ['Herald: сброс пароля', 'Чтобы задать новый пароль, откройте эту ссылку в течение 1 часа:'],
    uk: ['Herald: скидання пароля', 'Щоб задати новий пароль, відкрийте це посилання протягом 1 години:'],
  } as const;
  const [subject, intro] = texts[language];
  return { subject, text: `${intro}\n\n${link}\n` };
}

export async function resetPassword(
  db: Db,
  input: { token: string; password: string; confirmPassword?: string | undefined },
): Promise<void> {
  assertFields({
    password: checkPassword(input.password),
    confirmPassword:
      input.confirmPassword === undefined ? null : checkPasswordConfirmation(input.password, input.confirmPassword),
  });
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const accountId = await q.consumePasswordReset(trx, input.token, Date.now());
    if (accountId === null) throw invalidField('token', { key: 'reset.invalidToken' });
    await q.updateAccount(trx, accountId, { password_hash: passwordHash }, Date.now());
    await q.deleteOtherSessions(trx, accountId, null);
  });
}

/**
 * Signs in a user an identity provider vouched for: the account with this e-mail, or a new one on first login
 * (a random password it never learns; it can set one through password reset).
 */
export async function signInVerifiedEmail(deps: AuthDeps, rawEmail: string): Promise<{ token: string }> {
  const email = rawEmail.trim().toLowerCase();
  const existing = await q.findAccountByEmail(deps.db, email);
  if (existing) return { token: await openSession(deps.db, Number(existing.id), existing.profile) };
  try {
    const accountId = await q.insertAccount(
      deps.db,
      {
        email,
        passwordHash: await hashPassword(generatePassword()),
        timeZoneId: defaultTimeZoneId(),
        avatar: DEFAULT_AVATAR,
        language: null,
        profile: 'site',
        isAdmin: false,
      },
      Date.now(),
    );
    await deps.onAccountCreated?.(accountId);
    return { token: await openSession(deps.db, accountId, 'site') };
  } catch (error) {
    // Two first logins at once: the other one created it.
    if (!isUniqueViolation(error)) throw error;
    const created = await q.findAccountByEmail(deps.db, email);
    if (!created) throw error;
    return { token: await openSession(deps.db, Number(created.id), created.profile) };
  }
}

/**
 * On first start with no accounts: an admin with a generated password, printed once by the caller. Atomic, so when
 * several processes start at once on a fresh database exactly one creates it and the others answer null.
 */
export async function createFirstAdmin(db: Db): Promise<{ accountId: number; email: string; password: string } | null> {
  if ((await q.countAccounts(db)) > 0) return null;
  const email = 'admin@herald.local';
  const password = generatePassword();
  const account = {
    email,
    passwordHash: await hashPassword(password),
    timeZoneId: defaultTimeZoneId(),
    avatar: DEFAULT_AVATAR,
    language: null,
    profile: 'site',
    isAdmin: true,
  };
  try {
    const accountId = await q.insertFirstAccount(db, account, Date.now());
    return accountId === null ? null : { accountId, email, password };
  } catch (error) {
    // Another process inserted the same admin between our check and our insert.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** The reference's "(UTC) Coordinated Universal Time" entry: its IANA list names no "UTC", which servers mostly run in. */
const UTC_ZONE_ID = TIME_ZONES.find((zone) => zone.value === 'UTC')!.id;

/** The reference zone whose UTC list holds the server's own zone, else UTC. */
export function defaultTimeZoneId(): string {
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return findTimeZoneByIana(local) ?? UTC_ZONE_ID;
}

let zoneIdsByIana: Map<string, string> | undefined;

function findTimeZoneByIana(name: string): string | undefined {
  if (!zoneIdsByIana) {
    zoneIdsByIana = new Map();
    // The first reference entry listing a zone wins, under its own name and under ICU's.
    for (const zone of TIME_ZONES) {
      for (const listed of zone.utc) {
        for (const key of [listed, canonicalZone(listed)]) if (key && !zoneIdsByIana.has(key)) zoneIdsByIana.set(key, zone.id);
      }
    }
  }
  return zoneIdsByIana.get(name) ?? zoneIdsByIana.get(canonicalZone(name) ?? name);
}
