/** Herald is configured from the environment only (README, Configuration). */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

/** Single sign-on over OpenID Connect; set when OIDC_ISSUER and OIDC_CLIENT_ID are. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Unset for a public client (PKCE alone). */
  clientSecret: string | undefined;
  scopes: string;
  /** The provider's name on the login page's button; unset shows a generic "single sign-on". */
  label: string | undefined;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key scale mode writes, so installs (and tests) can share one Redis. */
  redisPrefix?: string | undefined;
  /** 32-byte key for secrets at rest, from HERALD_SECRET or a file generated under DATA_DIR. */
  secret: Buffer;
  publicUrl: string;
  seed: boolean;
  sessionIdleDays: number;
  logLevel: string;
  bodyLimitBytes: number;
  /** Largest contact import file; a bigger upload is answered 413. */
  importMaxBytes: number;
  /** Port of Herald's inbound SMTP for bounces; unset leaves it off. */
  bounceSmtpPort: number | undefined;
  /** How long a worker holds a batch before its messages return to the queue (HERALD_LEASE_MS; fault tests shorten it). */
  leaseMs?: number | undefined;
  /** Engine threads of `herald serve` on SQLite (HERALD_ENGINE_THREADS); unset: one per core beside the API's. */
  engineThreads?: number | undefined;
  oidc?: OidcConfig | undefined;
  /** Sign-ups one client address may make in an hour (SIGNUP_LIMIT_PER_HOUR). */
  signupsPerHour?: number | undefined;
  /** Feedback forms one client address may send in an hour (FEEDBACK_LIMIT_PER_HOUR). */
  feedbackPerHour?: number | undefined;
  /** Webhooks may post into loopback and private networks (WEBHOOK_PRIVATE_TARGETS=1); refused by default. */
  webhookPrivateTargets?: boolean | undefined;
  /** Whose X-Forwarded-For gives the client address (TRUST_PROXY): Fastify's trustProxy; loopback only by default. */
  trustProxy?: TrustProxy | undefined;
}

export const DEFAULT_SIGNUPS_PER_HOUR = 10;
export const DEFAULT_FEEDBACK_PER_HOUR = 20;

/** true trusts every peer, false none, a list those peers (addresses, CIDRs, loopback, linklocal, uniquelocal). */
export type TrustProxy = boolean | string[];

/** A reverse proxy on the same machine is believed; a remote peer cannot set the client address it is counted under. */
export const DEFAULT_TRUST_PROXY: TrustProxy = ['loopback'];
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxyFrom(value: string | undefined): TrustProxy {
  const text = value?.trim().toLowerCase();
  if (!text) return DEFAULT_TRUST_PROXY;
  if (text === 'false' || text === 'off') return false;
  if (text === 'true') return true;
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const valid =
      PROXY_RANGE_NAMES.includes(entry) ||
      (extra === undefined && isIP(address ?? '') !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!valid) {
      throw new Error(
        `TRUST_PROXY must be false, true or a list of addresses, CIDRs, loopback, linklocal, uniquelocal; got "${entry}"`,
      );
    }
  }
  return entries;
}

function numberFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new Error(`${name} must be a number, got "${value}"`);
  return parsed;
}

const MAX_ENGINE_THREADS = 16;

function portFrom(value: string | undefined): number {
  const port = numberFrom(value, 3000, 'PORT');
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`PORT must be a whole number from 1 to 65535, got "${value}"`);
  return port;
}

function threadCountFrom(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_ENGINE_THREADS)
    throw new Error(`HERALD_ENGINE_THREADS must be a whole number from 1 to ${MAX_ENGINE_THREADS}, got "${value}"`);
  return count;
}

/** A secret given as 64 hex characters is used as is; any other text is stretched to 32 bytes. */
function secretFrom(value: string | undefined, dataDir: string): Buffer {
  if (value) {
    if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
    return Buffer.from(createHash('sha256').update(value).digest());
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const generated = randomBytes(32);
  writeFileSync(file, generated.toString('hex'), { mode: 0o600 });
  return generated;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = portFrom(env.PORT);
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    secret: secretFrom(env.HERALD_SECRET, dataDir),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    seed: env.HERALD_SEED !== '0',
    sessionIdleDays: numberFrom(env.SESSION_IDLE_DAYS, 14, 'SESSION_IDLE_DAYS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimitBytes: numberFrom(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    importMaxBytes: numberFrom(env.IMPORT_MAX_BYTES, 200 * 1024 * 1024, 'IMPORT_MAX_BYTES'),
    bounceSmtpPort: env.BOUNCE_SMTP_PORT ? numberFrom(env.BOUNCE_SMTP_PORT, 0, 'BOUNCE_SMTP_PORT') : undefined,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    signupsPerHour: numberFrom(env.SIGNUP_LIMIT_PER_HOUR, DEFAULT_SIGNUPS_PER_HOUR, 'SIGNUP_LIMIT_PER_HOUR'),
    feedbackPerHour: numberFrom(env.FEEDBACK_LIMIT_PER_HOUR, DEFAULT_FEEDBACK_PER_HOUR, 'FEEDBACK_LIMIT_PER_HOUR'),
    webhookPrivateTargets: env.WEBHOOK_PRIVATE_TARGETS === '1',
    leaseMs: env.HERALD_LEASE_MS ? numberFrom(env.HERALD_LEASE_MS, 0, 'HERALD_LEASE_MS') : undefined,
    engineThreads: env.HERALD_ENGINE_THREADS ? threadCountFrom(env.HERALD_ENGINE_THREADS) : undefined,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET || undefined,
            scopes: env.OIDC_SCOPES || 'openid email profile',
            label: env.OIDC_LABEL || undefined,
          }
        : undefined,
  };
}
