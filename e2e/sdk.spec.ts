import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signedIn } from './fixtures';

const SDK_DIST = path.resolve(import.meta.dirname, '../packages/sdk/dist');

test('the SDK build runs in the browser: sends with an API key, reads the history, verifies a webhook signature', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!, 'api');
  const created = await request.post('/api/data/api-keys', {
    headers: { 'X-Token': token },
    data: { name: 'Browser SDK', scope: 'send' },
  });
  const { key } = (await created.json()) as { key: string };

  // The built ES modules, served from the page's own origin as a bundler would ship them.
  await page.route('**/__sdk/**', async (route) => {
    const file = path.join(SDK_DIST, new URL(route.request().url()).pathname.replace(/^\/__sdk\//, ''));
    await route.fulfill({ body: await readFile(file), contentType: 'text/javascript' });
  });
  await page.goto('/doc');

  const secret = 'whsec_browser';
  const body = JSON.stringify({ type: 'message.status', messageId: 1, status: 'sent', previousStatus: 'unsent' });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

  const result = await page.evaluate(
    async ({ key, secret, body, signature }) => {
      const entry = '/__sdk/index.js';
      const sdk = await import(entry);
      const herald = new sdk.HeraldClient({ baseUrl: window.location.origin, apiKey: key });
      const sent = await herald.messages.send({
        channel: 'email',
        to: 'browser@example.com',
        content: { subject: 'From a browser', text: 'Sent by the SDK in Chromium' },
      });
      const read = await herald.messages.get(sent.id);
      const failure = await herald.messages
        .send({ channel: 'email', to: 'not-an-address', content: { subject: 's', text: 't' } })
        .catch((error: { name: string; status: number; fields: { field: string }[] }) => ({
          name: error.name,
          status: error.status,
          fields: error.fields.map((field) => field.field),
        }));
      return {
        sent,
        read: { id: read.id, to: read.to, history: read.history.map((step: { status: string }) => step.status) },
        failure,
        valid: await sdk.verifyWebhook(secret, body, signature, 300),
        tampered: await sdk.verifyWebhook(secret, `${body} `, signature, 300),
      };
    },
    { key, secret, body, signature },
  );

  expect(result.sent).toMatchObject({ status: 'unsent', channel: 'email', to: 'browser@example.com' });
  expect(result.read).toMatchObject({ id: result.sent.id, to: 'browser@example.com' });
  expect(result.read.history[0]).toBe('unsent');
  expect(result.failure).toEqual({ name: 'HeraldError', status: 422, fields: ['to'] });
  expect(result.valid).toBe(true);
  expect(result.tampered).toBe(false);
});
