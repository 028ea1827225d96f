/** The smtp channel against real SMTP servers on loopback: AUTH, STARTTLS and TLS, DSN, DKIM, failures, a batch. */

import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import { dkimVerify } from 'mailauth';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSmtpSettings, smtpChannel, smtpPoolOptions } from '../../src/channels/smtp.js';
import { type Channel, type ChannelSettings, type OutgoingEmail, VERIFY_TIMEOUT_MS } from '../../src/channels/types.js';
import { decodedText } from '../helpers/mime.js';
import { type SinkMessage, type SmtpSink, type SmtpSinkOptions, startSmtpSink } from '../helpers/smtp-sink.js';
import { selfSignedCertificate } from '../helpers/tls.js';
import { waitFor } from '../helpers/wait.js';

const SENDER = 'news@herald.test';
const CREDENTIALS = { user: 'herald', pass: 's3cret pass' };

const openSinks: SmtpSink[] = [];
const openChannels: Channel[] = [];
const openServers: net.Server[] = [];

afterEach(async () => {
  await Promise.all(openChannels.splice(0).map((channel) => channel.close()));
  await Promise.all(openSinks.splice(0).map((sink) => sink.close()));
  await Promise.all(openServers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function sink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  openSinks.push(started);
  return started;
}

function channel(settings: ChannelSettings): Channel {
  const created = smtpChannel.create({ host: '127.0.0.1', security: 'none', senderEmail: SENDER, ...settings }, {});
  openChannels.push(created);
  return created;
}

function email(id: number, overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    id,
    to: `reader${id}@example.com`,
    subject: `Issue ${id}`,
    html: `<p>Hello ${id}</p>`,
    text: `Hello ${id}`,
    ...overrides,
  };
}

function headerBlock(message: SinkMessage): string {
  const raw = message.raw.toString('utf8');
  return raw.slice(0, raw.indexOf('\r\n\r\n'));
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('smtp channel definition', () => {
  it('describes an EMAIL channel whose form has the SMTP settings', () => {
    expect(smtpChannel.type).toBe('smtp');
    expect(smtpChannel.category).toBe('EMAIL');
    const byName = new Map(smtpChannel.fields.map((field) => [field.name, field]));
    expect(byName.get('host')).toMatchObject({ required: true, label: 'providers.field.host' });
    expect(byName.get('port')).toMatchObject({ kind: 'number', min: 1, max: 65535, default: 587 });
    expect(byName.get('security')).toMatchObject({ kind: 'select', options: ['none', 'starttls', 'tls'], default: 'starttls' });
    expect(byName.get('password')).toMatchObject({ kind: 'secret' });
    expect(byName.get('dkimPrivateKey')).toMatchObject({ kind: 'textarea', secret: true });
    expect(byName.get('senderEmail')).toMatchObject({ kind: 'email', required: true });
    expect(byName.get('allowSelfSigned')).toMatchObject({ kind: 'boolean', default: false });
  });
});

describe('smtp channel settings', () => {
  it('fills in the defaults and maps security onto nodemailer pool options', () => {
    const defaults = smtpPoolOptions(parseSmtpSettings({ host: 'mail.example.com', senderEmail: SENDER }));
    expect(defaults).toMatchObject({
      pool: true,
      port: 587,
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      maxConnections: 5,
      maxMessages: Number.POSITIVE_INFINITY,
      tls: { rejectUnauthorized: true },
      auth: undefined,
      dkim: undefined,
    });
    expect(defaults).not.toHaveProperty('rateLimit');

    const tuned = smtpPoolOptions(
      parseSmtpSettings({
        host: 'mail.example.com',
        port: 465,
        security: 'tls',
        senderEmail: SENDER,
        login: 'herald',
        password: ' spaced ',
        messagesPerSecond: 50,
        maxConnections: 12,
        allowSelfSigned: true,
        dkimDomain: 'herald.test',
        dkimSelector: 's1',
        dkimPrivateKey: 'KEY',
      }),
    );
    expect(tuned).toMatchObject({
      port: 465,
      secure: true,
      requireTLS: false,
      maxConnections: 12,
      rateLimit: 50,
      rateDelta: 1000,
      tls: { rejectUnauthorized: false },
      auth: { user: 'herald', pass: ' spaced ' },
      dkim: { domainName: 'herald.test', keySelector: 's1', privateKey: 'KEY' },
    });
    expect(smtpPoolOptions(parseSmtpSettings({ host: 'h', senderEmail: SENDER, security: 'none' }))).toMatchObject({
      requireTLS: false,
      ignoreTLS: true,
    });
  });

  it('refuses settings without a host or a sender', () => {
    expect(() => parseSmtpSettings({ senderEmail: SENDER })).toThrow(/host/);
    expect(() => parseSmtpSettings({ host: 'h' })).toThrow(/senderEmail/);
  });

  it('holds to messagesPerSecond', async () => {
    const server = await sink();
    const smtp = channel({ port: server.port, messagesPerSecond: 20 });

    const started = performance.now();
    const results = await smtp.send(Array.from({ length: 30 }, (_, index) => email(index + 1)));

    expect(results.every((result) => result.accepted)).toBe(true);
    expect(performance.now() - started).toBeGreaterThan(900);
  });
});

describe('smtp channel authentication', () => {
  it.each(['PLAIN', 'LOGIN'] as const)('logs in with AUTH %s and the right credentials', async (method) => {
    const server = await sink({ auth: CREDENTIALS, authMethods: [method] });
    const smtp = channel({ port: server.port, login: CREDENTIALS.user, password: CREDENTIALS.pass });

    expect(await smtp.verify()).toMatchObject({ ok: true });
    const [result] = await smtp.send([email(1)]);

    expect(result).toMatchObject({ id: 1, accepted: true });
    expect(server.messages).toHaveLength(1);
    expect(server.messages[0]).toMatchObject({ user: CREDENTIALS.user, authMethod: method });
  });

  it('is refused with a wrong password, and verify says why', async () => {
    const server = await sink({ auth: CREDENTIALS });
    const smtp = channel({ port: server.port, login: CREDENTIALS.user, password: 'wrong' });

    const verified = await smtp.verify();
    const [result] = await smtp.send([email(1)]);

    expect(verified.ok).toBe(false);
    expect(verified.message).toMatch(/Invalid login: 535 .*Authentication failed/);
    // The config is broken, not the message: another config may still deliver it.
    expect(result).toMatchObject({ id: 1, accepted: false, transient: true });
    expect(server.messages).toHaveLength(0);
  });
});

describe('smtp channel encryption', () => {
  it('upgrades with STARTTLS to a self-signed server when allowed', async () => {
    const server = await sink({ tls: selfSignedCertificate(), auth: CREDENTIALS });
    const smtp = channel({
      port: server.port,
      security: 'starttls',
      allowSelfSigned: true,
      login: CREDENTIALS.user,
      password: CREDENTIALS.pass,
    });

    expect(await smtp.verify()).toMatchObject({ ok: true });
    expect(await smtp.send([email(1)])).toMatchObject([{ accepted: true }]);
    expect(server.messages[0]).toMatchObject({ secure: true, user: CREDENTIALS.user });
  });

  it('refuses a self-signed certificate unless allowed, with a TLS message', async () => {
    const server = await sink({ tls: selfSignedCertificate() });
    const smtp = channel({ port: server.port, security: 'starttls' });

    const verified = await smtp.verify();
    const [result] = await smtp.send([email(1)]);

    expect(verified.ok).toBe(false);
    expect(verified.message).toBe(
      `TLS certificate of 127.0.0.1:${server.port} refused: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    );
    expect(result).toMatchObject({ accepted: false, transient: true });
    expect(server.messages).toHaveLength(0);
  });

  it('fails starttls against a server that does not offer it', async () => {
    const server = await sink();
    const verified = await channel({ port: server.port, security: 'starttls' }).verify();

    expect(verified.ok).toBe(false);
    expect(verified.message).toMatch(/STARTTLS/);
  });

  it('names the TLS failure when implicit TLS meets a plain server', async () => {
    const server = await sink();
    const verified = await channel({ port: server.port, security: 'tls' }).verify();

    expect(verified).toEqual({
      ok: false,
      message: `TLS with 127.0.0.1:${server.port} failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER)`,
    });
  });

  it('speaks implicit TLS from the first byte', async () => {
    const server = await sink({ tls: selfSignedCertificate(), secure: true });
    const smtp = channel({ port: server.port, security: 'tls', allowSelfSigned: true });

    expect(await smtp.verify()).toMatchObject({ ok: true });
    expect(await smtp.send([email(1)])).toMatchObject([{ accepted: true }]);
    expect(server.messages[0]?.secure).toBe(true);
  });
});

describe('smtp channel messages', () => {
  it('composes From, Reply-To, headers and both bodies, and reports the queue id', async () => {
    const server = await sink();
    const smtp = channel({ port: server.port, senderName: 'Herald News', replyTo: 'replies@herald.test' });

    const [result] = await smtp.send([
      email(7, { toName: 'Ada Reader', headers: { 'List-Unsubscribe': '<https://herald.test/u/7>' } }),
    ]);

    const received = server.messages[0]!;
    const headers = headerBlock(received);
    expect(result).toEqual({ id: 7, accepted: true, providerMessageId: received.queueId });
    expect(received.mailFrom.address).toBe(SENDER);
    expect(received.rcptTo.map((rcpt) => rcpt.address)).toEqual(['reader7@example.com']);
    expect(headers).toMatch(/^From: Herald News <news@herald\.test>$/m);
    expect(headers).toMatch(/^To: Ada Reader <reader7@example\.com>$/m);
    expect(headers).toMatch(/^Reply-To: replies@herald\.test$/m);
    expect(headers).toMatch(/^List-Unsubscribe: <https:\/\/herald\.test\/u\/7>$/m);
    expect(headers).toMatch(/^Subject: Issue 7$/m);
    expect(decodedText(received.raw.toString())).toContain('<p>Hello 7</p>');
    expect(received.raw.toString()).toContain('Content-Type: text/plain');
  });

  it('sends a raw message as is, with the envelope still set', async () => {
    const server = await sink();
    const smtp = channel({ port: server.port });
    const raw =
      'From: news@herald.test\r\nTo: someone@example.com\r\nSubject: Pre-built\r\nMessage-ID: <raw-1@herald.test>\r\n\r\nBody\r\n';

    const [result] = await smtp.send([email(3, { to: 'reader3@example.com', raw })]);

    const received = server.messages[0]!;
    expect(result).toMatchObject({ accepted: true, providerMessageId: received.queueId });
    expect(received.raw.toString()).toBe(raw);
    expect(received.mailFrom.address).toBe(SENDER);
    expect(received.rcptTo.map((rcpt) => rcpt.address)).toEqual(['reader3@example.com']);
  });

  it('asks for DSN on success and failure, with the message id as ENVID', async () => {
    const server = await sink();
    await channel({ port: server.port, deliveryConfirmation: true }).send([email(42)]);
    await channel({ port: server.port }).send([email(43)]);

    const [confirmed, plain] = server.messages;
    expect(confirmed?.dsn).toMatchObject({ envid: '42' });
    expect(confirmed?.mailFrom.args).toMatchObject({ ENVID: '42' });
    expect(confirmed?.rcptTo[0]?.dsn?.notify).toEqual(['SUCCESS', 'FAILURE']);
    expect(plain?.dsn?.envid ?? null).toBeNull();
    expect(plain?.rcptTo[0]?.dsn?.notify).toBeUndefined();
  });

  it('signs with DKIM so that a verifier passes the composed and the raw message', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const txtRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const resolver = async (name: string, type: string) => {
      if (name === 'herald2026._domainkey.herald.test' && type === 'TXT') return [[txtRecord]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    };
    const server = await sink();
    const smtp = channel({
      port: server.port,
      dkimDomain: 'herald.test',
      dkimSelector: 'herald2026',
      dkimPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const raw = 'From: news@herald.test\r\nTo: reader2@example.com\r\nSubject: Raw\r\n\r\nSigned raw body\r\n';

    expect(await smtp.send([email(1), email(2, { raw })])).toMatchObject([{ accepted: true }, { accepted: true }]);

    for (const received of server.messages) {
      const verdict = await dkimVerify(received.raw, { resolver });
      expect(verdict.results).toHaveLength(1);
      expect(verdict.results[0]).toMatchObject({
        signingDomain: 'herald.test',
        selector: 'herald2026',
        status: { result: 'pass' },
      });
    }
  });

  it('answers only e-mail: an SMS handed to it is refused for good', async () => {
    const server = await sink();
    const [result] = await channel({ port: server.port }).send([{ id: 9, to: '+33612345678', text: 'hi' }]);

    expect(result).toMatchObject({ id: 9, accepted: false, transient: false });
  });
});

describe('smtp channel failures', () => {
  it('reports a 5xx rejected recipient as final and a 4xx one as transient, the rest of the batch going through', async () => {
    const server = await sink({
      rejectRecipient: (address) => {
        if (address === 'gone@example.com') return { code: 550, text: 'No such user' };
        if (address === 'full@example.com') return { code: 452, text: 'Mailbox full, try later' };
        return undefined;
      },
    });
    const smtp = channel({ port: server.port });

    const results = await smtp.send([email(1, { to: 'gone@example.com' }), email(2, { to: 'full@example.com' }), email(3)]);

    expect(results[0]).toMatchObject({ id: 1, accepted: false, transient: false });
    expect(results[0]?.error).toMatch(/550 .*No such user/);
    expect(results[1]).toMatchObject({ id: 2, accepted: false, transient: true });
    expect(results[1]?.error).toMatch(/452/);
    expect(results[2]).toMatchObject({ id: 3, accepted: true });
    expect(server.messages.map((message) => message.rcptTo[0]?.address)).toEqual(['reader3@example.com']);
  });

  it.each([
    ['its own connections', {}],
    ["nodemailer's paced pool", { messagesPerSecond: 100 }],
  ])(
    'fails a send in flight when the channel closes (a config edited mid-send) over %s, instead of leaving it waiting',
    async (_, settings) => {
      const server = await sink({ replyDelayMs: 60_000 });
      const smtp = channel({ port: server.port, ...settings });
      const sending = smtp.send([email(1)]);
      await waitFor(() => server.messages.length === 1, 5000, 'the message at the server');
      const closedAt = Date.now();
      await smtp.close();
      const [result] = await sending;
      expect(Date.now() - closedAt).toBeLessThan(1000);
      expect(result).toMatchObject({ id: 1, accepted: false, transient: true });
    },
  );

  it('reports a refused connection as transient, and verify names it', async () => {
    const port = await closedPort();
    const smtp = channel({ port });

    const [result] = await smtp.send([email(1)]);
    const verified = await smtp.verify();

    expect(result).toMatchObject({ id: 1, accepted: false, transient: true });
    expect(verified).toEqual({ ok: false, message: `connect ECONNREFUSED 127.0.0.1:${port}` });
  });

  it('gives up verifying a host that never answers within the verify timeout', async () => {
    let clientHungUpAt = 0;
    // Accepts the TCP connection and never sends the SMTP greeting.
    const silent = net.createServer((socket) => {
      socket.on('close', () => {
        clientHungUpAt = performance.now();
      });
    });
    openServers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const smtp = channel({ port });

    const started = performance.now();
    const verified = await smtp.verify();
    const elapsed = performance.now() - started;

    expect(verified.ok).toBe(false);
    expect(verified.message).toContain(`127.0.0.1:${port}`);
    expect(elapsed).toBeGreaterThanOrEqual(VERIFY_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(VERIFY_TIMEOUT_MS + 1000);
    // The probe connection is not left open behind the answer.
    await expect.poll(() => clientHungUpAt, { timeout: 2000 }).toBeGreaterThan(0);
    expect(clientHungUpAt - started).toBeLessThan(VERIFY_TIMEOUT_MS + 1000);
  });
});

describe('smtp channel batches', () => {
  it('delivers 200 messages of one batch exactly once each', async () => {
    const server = await sink();
    const smtp = channel({ port: server.port, maxConnections: 5 });
    const batch = Array.from({ length: 200 }, (_, index) => email(index + 1));

    const results = await smtp.send(batch);

    expect(results.every((result) => result.accepted)).toBe(true);
    expect(results.map((result) => result.id)).toEqual(batch.map((message) => message.id));
    expect(server.messages).toHaveLength(200);
    const recipients = new Set(server.messages.map((message) => message.rcptTo[0]?.address));
    expect(recipients.size).toBe(200);
    expect(new Set(results.map((result) => result.providerMessageId)).size).toBe(200);
  });
});
