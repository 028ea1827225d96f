import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signedIn } from './fixtures';

interface Received {
  body: { type: string; messageId?: number; status?: string; previousStatus?: string };
  signature: string;
  raw: string;
}

/** A loopback receiver standing in for the integrator's endpoint. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ body: JSON.parse(raw), signature: String(request.headers['x-herald-signature']), raw });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

function signedWith(secret: string, event: Received): boolean {
  const [t, v1] = event.signature.split(',').map((part) => part.split('=')[1]);
  return createHmac('sha256', secret).update(`${t}.${event.raw}`).digest('hex') === v1;
}

test('integration: create an API key shown once, send with it, see webhook deliveries, revoke the key', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const receiver = await startReceiver();
  try {
    await signedIn(request, context, baseURL!, 'api');
    await page.goto('/integration/keys');
    await expect(page.getByTestId('keys-empty')).toBeVisible();

    await page.getByTestId('keys-create').click();
    await page.getByTestId('key-name').fill('Shop backend');
    await page.getByTestId('key-create-submit').click();
    const shown = page.getByTestId('key-secret');
    await expect(shown).toContainText(/hk_[A-Za-z0-9_-]{40}/);
    const key = ((await shown.textContent()) ?? '').match(/hk_[A-Za-z0-9_-]{40}/)![0];
    await page.getByTestId('key-secret-close').click();
    await expect(shown).toBeHidden();
    const row = page.locator('[data-testid^="key-row-"]').first();
    await expect(row).toContainText('Shop backend');
    await expect(row).toContainText(`${key.slice(0, 7)}…`);
    await expect(row).toContainText('Active');
    // Shown once: the list never carries the key itself.
    await expect(page.getByText(key)).toHaveCount(0);

    await page.goto('/integration/webhooks');
    // Any http(s) address the server can call is taken, an intranet host without a dot too; other schemes are not.
    await page.getByTestId('webhook-url').fill('mailto:ops@example.com');
    await expect(page.getByText('Enter a valid URL (http or https)')).toBeVisible();
    await page.getByTestId('webhook-url').fill('http://intranet:8080/hook');
    await expect(page.getByText('Enter a valid URL (http or https)')).toHaveCount(0);
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-save').click();
    const secretText = page.getByTestId('webhook-secret');
    await expect(secretText).toContainText(/whsec_/);
    const secret = ((await secretText.textContent()) ?? '').match(/whsec_[A-Za-z0-9_-]+/)![0];
    await page.getByTestId('webhook-secret-close').click();

    await page.getByTestId('webhook-test').click();
    await expect(page.getByText('Test event delivered (HTTP 200)')).toBeVisible();
    const log = page.getByTestId('webhook-log');
    await expect(log).toContainText('Test event');
    expect(signedWith(secret, receiver.received[0]!)).toBe(true);

    // An API message through the account's sandbox provider: the log shows its unsent → sent event, delivered.
    const sent = await request.post('/api/v1/messages', {
      headers: { Authorization: `Bearer ${key}` },
      data: { channel: 'email', to: 'buyer@example.com', content: { subject: 'Hi', text: 'Hello' } },
    });
    expect(sent.status()).toBe(202);
    const { id } = (await sent.json()) as { id: number };
    await expect(log).toContainText(`Message ${id}`, { timeout: 20_000 });
    // The sandbox also reports a receipt, so sent → delivered follows; the list is newest first.
    const eventRow = log
      .locator('[data-testid^="delivery-row-"]')
      .filter({ hasText: `Message ${id}` })
      .filter({ hasText: 'Unsent' });
    await expect(eventRow).toContainText('Sent');
    await expect(eventRow).toContainText('Delivered');
    const event = receiver.received.find((r) => r.body.messageId === id && r.body.previousStatus === 'unsent')!;
    expect(event.body).toMatchObject({ type: 'message.status', previousStatus: 'unsent', status: 'sent' });
    expect(signedWith(secret, event)).toBe(true);

    await page.goto('/integration/keys');
    await page.locator('[data-testid^="key-revoke-"]').first().click();
    await page.getByRole('button', { name: 'Revoke' }).last().click();
    await expect(page.locator('[data-testid^="key-row-"]').first()).toContainText('Revoked');
    const refused = await request.get(`/api/v1/messages/${id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(refused.status()).toBe(401);
  } finally {
    receiver.server.close();
  }
});
