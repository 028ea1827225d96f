/**
 * The `smtp` e-mail channel: one nodemailer connection pool per provider config, with STARTTLS or implicit
 * TLS, AUTH, DKIM signing and DSN delivery confirmation. A pre-built `raw` message skips MIME composition,
 * which is most of the client's CPU per message (BENCHMARKS.md).
 */
import nodemailer, {
  type NodemailerError,
  type SendMailOptions,
  type SMTPPoolOptions,
  type SMTPPoolSentMessageInfo,
} from 'nodemailer';
import type { SMTPEnvelope } from 'nodemailer/lib/smtp-connection';
import { SmtpConnections } from './smtp-connections.js';
import { canWriteMime, newMessageId, writeMime } from './smtp-mime.js';
import {
  type Channel,
  type ChannelDefinition,
  type ChannelSettings,
  type OutgoingEmail,
  type OutgoingMessage,
  type SendResult,
  VERIFY_TIMEOUT_MS,
  type VerifyResult,
} from './types.js';

export const SMTP_SECURITY_MODES = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY_MODES)[number];

/** nodemailer waits 2 minutes by default; a server that takes this long to answer is down for our purposes. */
const CONNECTION_TIMEOUT_MS = 30_000;
/**
 * A server silent this long in a session (after DATA, say) fails the send as temporary, so the engine retries it or
 * fails over; nodemailer's 10 minutes held a campaign's messages at a hung relay that long.
 */
const SOCKET_TIMEOUT_MS = 60_000;

/** Errors that say the provider or the way to it failed, not the message: worth retrying, here or elsewhere. */
const PROVIDER_ERROR_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EPROXY',
  'EAUTH',
  'ENOAUTH',
  'EOAUTH2',
  'EMAXLIMIT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

export interface SmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  login?: string;
  password?: string;
  senderName?: string;
  senderEmail: string;
  replyTo?: string;
  deliveryConfirmation: boolean;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  maxConnections: number;
  messagesPerSecond?: number;
  allowSelfSigned: boolean;
}

function text(settings: ChannelSettings, name: string): string | undefined {
  const value = settings[name];
  if (value === undefined || value === null) return undefined;
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

function positiveNumber(settings: ChannelSettings, name: string): number | undefined {
  const value = Number(text(settings, name));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function flag(settings: ChannelSettings, name: string): boolean {
  const value = settings[name];
  return value === true || value === 'true' || value === 1 || value === '1';
}

export function parseSmtpSettings(settings: ChannelSettings): SmtpSettings {
  const host = text(settings, 'host');
  const senderEmail = text(settings, 'senderEmail');
  if (!host) throw new Error('smtp: host is required');
  if (!senderEmail) throw new Error('smtp: senderEmail is required');
  const security = text(settings, 'security') ?? 'starttls';
  if (!(SMTP_SECURITY_MODES as readonly string[]).includes(security)) throw new Error(`smtp: unknown security "${security}"`);
  const dkimDomain = text(settings, 'dkimDomain');
  const dkimSelector = text(settings, 'dkimSelector');
  const dkimPrivateKey = text(settings, 'dkimPrivateKey');
  return {
    host,
    port: positiveNumber(settings, 'port') ?? 587,
    security: security as SmtpSecurity,
    login: text(settings, 'login'),
    // Passwords may legitimately start or end with spaces.
    password: settings.password === undefined || settings.password === null ? undefined : String(settings.password),
    senderName: text(settings, 'senderName'),
    senderEmail,
    replyTo: text(settings, 'replyTo'),
    deliveryConfirmation: flag(settings, 'deliveryConfirmation'),
    dkim:
      dkimDomain && dkimSelector && dkimPrivateKey
        ? { domainName: dkimDomain, keySelector: dkimSelector, privateKey: dkimPrivateKey }
        : undefined,
    maxConnections: positiveNumber(settings, 'maxConnections') ?? 5,
    messagesPerSecond: positiveNumber(settings, 'messagesPerSecond'),
    allowSelfSigned: flag(settings, 'allowSelfSigned'),
  };
}

export function smtpPoolOptions(settings: SmtpSettings): SMTPPoolOptions & { pool: true } {
  return {
    pool: true,
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    tls: { rejectUnauthorized: !settings.allowSelfSigned },
    auth: settings.login ? { user: settings.login, pass: settings.password ?? '' } : undefined,
    maxConnections: settings.maxConnections,
    maxMessages: Number.POSITIVE_INFINITY,
    ...(settings.messagesPerSecond ? { rateLimit: settings.messagesPerSecond, rateDelta: 1000 } : {}),
    dkim: settings.dkim,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  };
}

function isEmail(message: OutgoingMessage): message is OutgoingEmail {
  return 'subject' in message;
}

function envelopeOf(settings: SmtpSettings, message: OutgoingEmail): SendMailOptions['envelope'] & SMTPEnvelope {
  return { from: message.returnPath ?? settings.senderEmail, to: [message.to] };
}

function dsnOf(settings: SmtpSettings, message: OutgoingEmail): SendMailOptions['dsn'] {
  return settings.deliveryConfirmation ? { notify: ['SUCCESS', 'FAILURE'], envid: String(message.id) } : undefined;
}

/** The whole message as bytes when Herald can write it (or the caller did); undefined leaves it to nodemailer. */
function prebuilt(settings: SmtpSettings, message: OutgoingEmail): { raw: Buffer | string; messageId?: string } | undefined {
  if (message.raw !== undefined) {
    const head = message.raw.slice(0, Math.max(0, message.raw.indexOf('\r\n\r\n'))).toString();
    const messageId = /^Message-ID:\s*(<[^>\r\n]*>)/im.exec(head)?.[1];
    return { raw: message.raw, ...(messageId ? { messageId } : {}) };
  }
  const from = { name: settings.senderName, address: settings.senderEmail };
  const to = { name: message.toName, address: message.to };
  if (!canWriteMime({ from, to, replyTo: settings.replyTo })) return undefined;
  const messageId = newMessageId(settings.senderEmail);
  const raw = writeMime({
    from,
    to,
    replyTo: settings.replyTo,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers,
    messageId,
  });
  return { raw, messageId };
}

function composedOptions(settings: SmtpSettings, message: OutgoingEmail): SendMailOptions {
  return {
    envelope: envelopeOf(settings, message),
    dsn: dsnOf(settings, message),
    from: settings.senderName ? { name: settings.senderName, address: settings.senderEmail } : settings.senderEmail,
    to: message.toName ? { name: message.toName, address: message.to } : message.to,
    replyTo: settings.replyTo,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers,
    // Base64 is encoded natively; quoted-printable was most of the CPU a campaign message cost.
    textEncoding: 'base64',
  };
}

/** The id the server filed the message under (Postfix "queued as X", Exim "id=X"), else our Message-ID. */
export function providerMessageId(
  info: Pick<SMTPPoolSentMessageInfo, 'serverMessageId' | 'response'> & { messageId?: string },
  ownMessageId?: string,
): string {
  if (info.serverMessageId) return info.serverMessageId;
  const queueId = /queued as ([^\s,;]+)/i.exec(info.response)?.[1] ?? /\bid=([^\s,;]+)/i.exec(info.response)?.[1];
  return queueId ?? ownMessageId ?? info.messageId ?? '';
}

/** A 4xx reply or a broken connection may pass later; a 5xx reply to the message will not (503 is a session fault). */
export function isTransientSmtpError(error: NodemailerError): boolean {
  if (PROVIDER_ERROR_CODES.has(error.code ?? '') || PROVIDER_ERROR_CODES.has(error.originalCode ?? '')) return true;
  if (typeof error.responseCode === 'number') return error.responseCode < 500 || error.responseCode === 503;
  return false;
}

/** The server refused the recipient (RCPT TO), not the sender, the message or the session. */
export function isRecipientRefusal(error: NodemailerError): boolean {
  return error.command === 'RCPT TO';
}

/** Node's codes for a certificate the client refused, e.g. DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID. */
const CERTIFICATE_ERROR_CODE = /CERT|SIGNED|UNABLE_TO_VERIFY/;

/** The cause an operator can act on, naming the server when nodemailer's message does not. */
export function describeSmtpError(error: unknown, host: string, port: number): string {
  if (!(error instanceof Error)) return String(error);
  const { code, originalCode, responseCode } = error as NodemailerError;
  const target = `${host}:${port}`;
  // OpenSSL's message is a dump of its internals; the reason is the readable part ("wrong version number").
  const opensslReason = (error as { reason?: unknown }).reason;
  if (typeof opensslReason === 'string') return `TLS with ${target} failed: ${opensslReason} (${originalCode ?? code})`;
  if (originalCode && CERTIFICATE_ERROR_CODE.test(originalCode)) {
    return `TLS certificate of ${target} refused: ${error.message} (${originalCode})`;
  }
  if (responseCode === undefined && !error.message.includes(host)) return `${error.message} (${target})`;
  return error.message;
}

function createSmtpChannel(rawSettings: ChannelSettings): Channel {
  const settings = parseSmtpSettings(rawSettings);
  const poolOptions = smtpPoolOptions(settings);
  const transporter = nodemailer.createTransport(poolOptions);
  // DKIM signing and nodemailer's own rate limit live in the transport; otherwise bytes go straight to a connection.
  const connections =
    settings.dkim || settings.messagesPerSecond
      ? undefined
      : new SmtpConnections({
          connection: {
            host: settings.host,
            port: settings.port,
            secure: poolOptions.secure,
            requireTLS: poolOptions.requireTLS,
            ignoreTLS: poolOptions.ignoreTLS,
            tls: poolOptions.tls,
            connectionTimeout: CONNECTION_TIMEOUT_MS,
            socketTimeout: SOCKET_TIMEOUT_MS,
          },
          auth: poolOptions.auth ? { user: settings.login, pass: settings.password ?? '' } : undefined,
          maxConnections: settings.maxConnections,
        });

  // Closing a connection (the config was edited or removed) drops the send it carries without a word to it: each
  // send in flight also ends when the channel closes, as a transient failure the engine retries.
  const inFlight = new Set<(error: Error) => void>();
  const untilClosed = <T>(sending: Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      inFlight.add(reject);
      sending.then(resolve, reject).finally(() => inFlight.delete(reject));
    });

  async function sendOne(message: OutgoingMessage): Promise<SendResult> {
    if (!isEmail(message)) {
      return { id: message.id, accepted: false, error: 'the smtp channel sends e-mail only', transient: false };
    }
    try {
      const built = prebuilt(settings, message);
      if (built && connections) {
        const dsn = dsnOf(settings, message);
        const envelope = { ...envelopeOf(settings, message), ...(dsn ? { dsn } : {}) };
        const info = await untilClosed(connections.send(envelope, built.raw));
        return { id: message.id, accepted: true, providerMessageId: providerMessageId(info, built.messageId) };
      }
      const options: SendMailOptions = built
        ? { envelope: envelopeOf(settings, message), dsn: dsnOf(settings, message), raw: built.raw, messageId: built.messageId }
        : composedOptions(settings, message);
      const info = await untilClosed(transporter.sendMail(options));
      return { id: message.id, accepted: true, providerMessageId: providerMessageId(info, options.messageId) };
    } catch (error) {
      return {
        id: message.id,
        accepted: false,
        error: describeSmtpError(error, settings.host, settings.port),
        transient: isTransientSmtpError(error as NodemailerError),
        recipientFault: isRecipientRefusal(error as NodemailerError),
      };
    }
  }

  return {
    parallelism: settings.maxConnections,
    send: (messages) => Promise.all(messages.map(sendOne)),

    async verify(): Promise<VerifyResult> {
      const target = `${settings.host}:${settings.port}`;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<VerifyResult>((resolve) => {
        timer = setTimeout(
          () => resolve({ ok: false, message: `no answer from ${target} within ${VERIFY_TIMEOUT_MS} ms` }),
          VERIFY_TIMEOUT_MS,
        );
      });
      // Its own connection, with nodemailer's timeouts cut to the verify budget so a silent host is not left connected.
      const probe = nodemailer.createTransport({
        ...poolOptions,
        pool: false,
        connectionTimeout: VERIFY_TIMEOUT_MS,
        greetingTimeout: VERIFY_TIMEOUT_MS,
        socketTimeout: VERIFY_TIMEOUT_MS,
      });
      const verified = probe.verify().then(
        (): VerifyResult => ({ ok: true, message: `${target} accepted the connection${settings.login ? ' and the login' : ''}` }),
        (error: unknown): VerifyResult => ({ ok: false, message: describeSmtpError(error, settings.host, settings.port) }),
      );
      try {
        return await Promise.race([verified, timedOut]);
      } finally {
        clearTimeout(timer);
        probe.close();
      }
    },

    async close() {
      const closed = Object.assign(new Error('the channel closed before the server answered'), { code: 'ECONNECTION' });
      for (const fail of inFlight) fail(closed);
      connections?.close();
      transporter.close();
    },
  };
}

export const smtpChannel: ChannelDefinition = {
  type: 'smtp',
  category: 'EMAIL',
  fields: [
    { name: 'host', label: 'providers.field.host', kind: 'string', required: true },
    { name: 'port', label: 'providers.field.port', kind: 'number', min: 1, max: 65535, default: 587 },
    { name: 'security', label: 'providers.field.security', kind: 'select', options: SMTP_SECURITY_MODES, default: 'starttls' },
    { name: 'allowSelfSigned', label: 'providers.field.allowSelfSigned', kind: 'boolean', default: false },
    { name: 'login', label: 'providers.field.login', kind: 'string' },
    { name: 'password', label: 'providers.field.password', kind: 'secret', secret: true },
    { name: 'senderName', label: 'providers.field.senderName', kind: 'string' },
    { name: 'senderEmail', label: 'providers.field.senderEmail', kind: 'email', required: true },
    { name: 'replyTo', label: 'providers.field.replyTo', kind: 'email' },
    { name: 'deliveryConfirmation', label: 'providers.field.deliveryConfirmation', kind: 'boolean', default: false },
    { name: 'dkimDomain', label: 'providers.field.dkimDomain', kind: 'string' },
    { name: 'dkimSelector', label: 'providers.field.dkimSelector', kind: 'string' },
    { name: 'dkimPrivateKey', label: 'providers.field.dkimPrivateKey', kind: 'textarea', secret: true },
    { name: 'maxConnections', label: 'providers.field.maxConnections', kind: 'number', min: 1, max: 100, default: 5 },
    { name: 'messagesPerSecond', label: 'providers.field.messagesPerSecond', kind: 'number', min: 1 },
  ],
  create: (settings) => createSmtpChannel(settings),
};
