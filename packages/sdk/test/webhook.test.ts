import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../src/webhook.js';

const secret = 'whsec_test_7f3a9c';
const body = JSON.stringify({ type: 'message.status', messageId: 12, status: 'delivered', previousStatus: 'sent' });

/** Signs the way the contract says, with Node's own HMAC, independent of the SDK's Web Crypto code. */
function sign(rawBody: string | Buffer, timestamp: number, key = secret): string {
  const digest = createHmac('sha256', key).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const nowSeconds = now / 1000;

describe('verifyWebhook', () => {
  it('accepts a fresh signature of the exact body', async () => {
    expect(await verifyWebhook(secret, body, sign(body, nowSeconds), 300, now)).toBe(true);
  });

  it('accepts the body as bytes, including non-ASCII text', async () => {
    const raw = Buffer.from(JSON.stringify({ to: 'олена@example.com', detail: 'доставлено ✓' }), 'utf8');
    expect(await verifyWebhook(secret, new Uint8Array(raw), sign(raw, nowSeconds), 300, now)).toBe(true);
    expect(await verifyWebhook(secret, raw.toString('utf8'), sign(raw, nowSeconds), 300, now)).toBe(true);
  });

  it('refuses a changed body, another secret or a changed timestamp', async () => {
    const header = sign(body, nowSeconds);
    expect(await verifyWebhook(secret, body.replace('delivered', 'read'), header, 300, now)).toBe(false);
    expect(await verifyWebhook('whsec_other', body, header, 300, now)).toBe(false);
    const moved = header.replace(`t=${nowSeconds}`, `t=${nowSeconds + 1}`);
    expect(await verifyWebhook(secret, body, moved, 300, now)).toBe(false);
  });

  it('refuses a signature older or newer than the tolerance', async () => {
    expect(await verifyWebhook(secret, body, sign(body, nowSeconds - 301), 300, now)).toBe(false);
    expect(await verifyWebhook(secret, body, sign(body, nowSeconds + 301), 300, now)).toBe(false);
    expect(await verifyWebhook(secret, body, sign(body, nowSeconds - 299), 300, now)).toBe(true);
    expect(await verifyWebhook(secret, body, sign(body, nowSeconds - 3600), 7200, now)).toBe(true);
  });

  it('accepts any of several v1 signatures (secret rotation) and ignores unknown parts', async () => {
    const good = sign(body, nowSeconds).split('v1=')[1];
    const header = `t=${nowSeconds},v0=abc,v1=${'0'.repeat(64)},v1=${good}`;
    expect(await verifyWebhook(secret, body, header, 300, now)).toBe(true);
  });

  it('refuses missing and malformed headers', async () => {
    for (const header of [
      undefined,
      null,
      '',
      'garbage',
      `t=${nowSeconds}`,
      'v1=00',
      `t=abc,v1=${'0'.repeat(64)}`,
      `t=${nowSeconds},v1=zz`,
    ]) {
      expect(await verifyWebhook(secret, body, header, 300, now)).toBe(false);
    }
    expect(await verifyWebhook('', body, sign(body, nowSeconds, ''), 300, now)).toBe(false);
  });

  it('uses the current time by default', async () => {
    expect(await verifyWebhook(secret, body, sign(body, Math.floor(Date.now() / 1000)))).toBe(true);
    expect(await verifyWebhook(secret, body, sign(body, Math.floor(Date.now() / 1000) - 600))).toBe(false);
  });
});
