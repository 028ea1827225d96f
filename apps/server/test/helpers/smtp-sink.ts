/**
 * A loopback SMTP server for tests: keeps every message it accepts with its envelope, so a test can check
 * what a real client put on the wire (AUTH, TLS, DSN parameters, DKIM headers).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerEnvelopeDSN, type SMTPServerError } from 'smtp-server';
import type { TlsKeyPair } from './tls.js';

export interface SinkMessage {
  mailFrom: SMTPServerAddress;
  rcptTo: SMTPServerAddress[];
  /** RET and ENVID from MAIL FROM (per-recipient NOTIFY is on each rcptTo entry's dsn). */
  dsn?: SMTPServerEnvelopeDSN;
  raw: Buffer;
  /** The user the client authenticated as, and with which SASL method. */
  user?: string;
  authMethod?: string;
  secure: boolean;
  /** The id the sink announced in its 250 reply ("OK: queued as <queueId>"). */
  queueId: string;
}

export interface SinkReply {
  code: number;
  text: string;
}

export interface SmtpSinkOptions {
  /** Require AUTH PLAIN or LOGIN with these credentials; without it the sink takes mail from anyone. */
  auth?: { user: string; pass: string };
  /** SASL methods the sink advertises, PLAIN and LOGIN by default. */
  authMethods?: ('PLAIN' | 'LOGIN')[];
  /** Implicit TLS from the first byte (port 465 style). Needs tls. */
  secure?: boolean;
  /** Certificate for implicit TLS or, when secure is not set, for STARTTLS; without it STARTTLS is not offered. */
  tls?: TlsKeyPair;
  /** The reply refusing a sender at MAIL FROM, or undefined to accept it. */
  rejectSender?: (address: string) => SinkReply | undefined;
  /** The reply refusing a recipient at RCPT TO, or undefined to accept it; a promise keeps the client waiting. */
  rejectRecipient?: (address: string) => SinkReply | undefined | Promise<SinkReply | undefined>;
  onMessage?: (message: SinkMessage) => void;
  /** How long the sink takes to answer each message it received (a slow relay), or a function saying so per message. */
  replyDelayMs?: number | (() => number);
}

export interface SmtpSink {
  port: number;
  messages: SinkMessage[];
  close(): Promise<void>;
}

interface SinkUser {
  name: string;
  method: string;
}

function replyError(reply: SinkReply): SMTPServerError {
  return Object.assign(new Error(reply.text), { responseCode: reply.code });
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  let queued = 0;
  const disabledCommands = [...(options.auth ? [] : ['AUTH']), ...(options.tls && !options.secure ? [] : ['STARTTLS'])];
  const server = new SMTPServer({
    secure: options.secure ?? false,
    key: options.tls?.key,
    cert: options.tls?.cert,
    logger: false,
    disableReverseLookup: true,
    // A test that leaves a client connected should not wait smtp-server's default 30 s on close.
    closeTimeout: 500,
    // DSN is off in smtp-server unless asked for; Herald's delivery confirmation depends on it.
    hideDSN: false,
    disabledCommands,
    authMethods: options.authMethods ?? ['PLAIN', 'LOGIN'],
    authOptional: !options.auth,
    // Lets the plain-text (security "none") tests authenticate too.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const expected = options.auth;
      if (expected && auth.username === expected.user && auth.password === expected.pass) {
        const user: SinkUser = { name: auth.username, method: auth.method };
        callback(null, { user });
        return;
      }
      callback(null, { message: 'Authentication failed', responseCode: 535 });
    },
    onMailFrom(address, _session, callback) {
      const reply = options.rejectSender?.(address.address);
      callback(reply ? replyError(reply) : null);
    },
    onRcptTo(address, _session, callback) {
      void Promise.resolve(options.rejectRecipient?.(address.address)).then((reply) =>
        callback(reply ? replyError(reply) : null),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        queued += 1;
        const user = session.user as SinkUser | undefined;
        const message: SinkMessage = {
          mailFrom: session.envelope.mailFrom as SMTPServerAddress,
          rcptTo: [...session.envelope.rcptTo],
          dsn: session.envelope.dsn ? { ...session.envelope.dsn } : undefined,
          raw: Buffer.concat(chunks),
          user: user?.name,
          authMethod: user?.method,
          secure: session.secure,
          queueId: `SINK${queued.toString(16).toUpperCase().padStart(6, '0')}`,
        };
        messages.push(message);
        options.onMessage?.(message);
        const reply = () => callback(null, `OK: queued as ${message.queueId}`);
        const delay = typeof options.replyDelayMs === 'function' ? options.replyDelayMs() : (options.replyDelayMs ?? 0);
        if (delay > 0) setTimeout(reply, delay);
        else reply();
      });
    },
  });
  server.on('error', () => {
    // Clients dropping connections mid-session (refused TLS, closed pools) are expected in tests.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
