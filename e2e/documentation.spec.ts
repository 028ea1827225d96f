import { expect, test } from '@playwright/test';
import { signedIn } from './fixtures';

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

test('/doc without login renders every operation of openapi.json, the public API first, with samples', async ({
  page,
  request,
}) => {
  const document = (await (await request.get('/api/openapi.json')).json()) as OpenApi;
  const expected = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(expected).toContain('POST /api/v1/messages');

  await page.goto('/doc');
  await expect(page).toHaveURL(/\/doc$/);
  await expect(page.getByTestId('documentation-count')).toHaveText(`${expected.length} operations`);
  const shown = await page
    .getByTestId('operation')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-operation')));
  expect([...shown].sort()).toEqual([...expected].sort());
  // The public /api/v1 operations come first, in their own part.
  expect(shown.slice(0, 3).every((id) => id?.includes(' /api/v1/'))).toBe(true);
  await expect(page.getByTestId('public-operations').getByTestId('operation')).toHaveCount(
    expected.filter((id) => id.includes(' /api/v1/')).length,
  );

  // The first public operation is open: its body schema, answers, samples in three languages and the try-it panel.
  const details = page.getByTestId('operation-details').first();
  await expect(details.getByTestId('operation-body-schema')).toContainText('channel');
  await expect(details.getByTestId('response-202')).toContainText('createdAt');
  await expect(details.getByTestId('sample-curl')).toContainText("curl -X POST 'http://127.0.0.1:");
  await expect(details.getByTestId('sample-curl')).toContainText('Authorization: Bearer $HERALD_API_KEY');
  await details.getByRole('tab', { name: 'JavaScript (SDK)' }).click();
  await expect(details.getByTestId('sample-javascript')).toContainText('herald.messages.send(');
  await details.getByRole('tab', { name: 'Python' }).click();
  await expect(details.getByTestId('sample-python')).toContainText('requests.post(');
  await expect(details.getByTestId('try-it-send')).toBeDisabled();

  // A console operation opens on click and is described too.
  await page.getByTestId('documentation-search').fill('health');
  await expect(page.getByTestId('operation')).toHaveCount(1);
  await page.getByTestId('operation').click();
  await expect(page.getByTestId('response-200')).toContainText('status');

  // The SDK part is on the same page.
  await expect(page.getByTestId('documentation-sdk')).toContainText('verifyWebhook');
  await page.getByText('SDK', { exact: true }).click();
  await expect(page.getByTestId('sdk-install')).toBeInViewport();
});

test('/documentation/sdk opens the same page scrolled to the SDK part; /documentation/api at the API part', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await signedIn(request, context, baseURL!, 'api');
  await page.goto('/documentation/sdk');
  await expect(page.getByTestId('documentation-count')).toBeVisible();
  await expect(page.getByTestId('sdk-install')).toBeInViewport();
  await expect(page.getByTestId('documentation-api').getByRole('heading', { name: 'Sending API' })).not.toBeInViewport();

  await page.goto('/documentation/api');
  await expect(page.getByTestId('documentation-api').getByRole('heading', { name: 'Sending API' })).toBeInViewport();
  await expect(page.getByTestId('sdk-install')).not.toBeInViewport();
});

test('try-it sends a real message with the user’s API key and shows the 202 answer', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!, 'api');
  const created = await request.post('/api/data/api-keys', {
    headers: { 'X-Token': token },
    data: { name: 'Docs try-it', scope: 'send' },
  });
  expect(created.status()).toBe(200);
  const { key } = (await created.json()) as { key: string };

  await page.goto('/documentation/api');
  const details = page.getByTestId('operation-details').first();
  await details.getByTestId('try-it-key').fill(key);
  // Every key field shows the one key kept for this tab.
  await expect(page.getByTestId('doc-api-key')).toHaveValue(key);
  const body = details.getByTestId('try-it-body');
  await body.fill(
    JSON.stringify({ channel: 'email', to: 'try-it@example.com', content: { subject: 'Try it', text: 'From the docs' } }),
  );
  await details.getByTestId('try-it-send').click();

  await expect(details.getByTestId('try-it-status')).toContainText('202');
  await expect(details.getByTestId('try-it-headers')).toContainText('content-type: application/json');
  const answer = details.getByTestId('try-it-response-body');
  await expect(answer).toContainText('"status": "unsent"');
  await expect(answer).toContainText('"to": "try-it@example.com"');
  const { id } = JSON.parse((await answer.textContent()) ?? '{}') as { id: number };

  // The message really exists for this account.
  const stored = await request.get(`/api/v1/messages/${id}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(stored.status()).toBe(200);
  expect(await stored.json()).toMatchObject({ id, to: 'try-it@example.com', channel: 'email' });

  // A new Idempotency-Key makes a new message.
  await details.getByRole('button', { name: 'New key' }).click();
  await details.getByTestId('try-it-send').click();
  await expect.poll(async () => (JSON.parse((await answer.textContent()) ?? '{}') as { id?: number }).id).toBeGreaterThan(id);

  // The read operation offers the message just sent, and shows it with its history.
  const read = page.locator('.ant-collapse-item').filter({ has: page.locator('[data-operation="GET /api/v1/messages/{id}"]') });
  await read.getByTestId('operation').click();
  const second = (JSON.parse((await answer.textContent()) ?? '{}') as { id: number }).id;
  const idField = read.getByTestId('try-it-param-id');
  // Under CI load (the fault suite beside) one click twice left the field unchanged (cause not found): click until it takes.
  await expect(async () => {
    if ((await idField.inputValue()) !== String(second)) await read.getByTestId('try-it-last-id').click({ timeout: 2000 });
    await expect(idField).toHaveValue(String(second), { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await read.getByTestId('try-it-send').click();
  await expect(read.getByTestId('try-it-status')).toContainText('200');
  await expect(read.getByTestId('try-it-response-body')).toContainText(`"id": ${second}`);
  await expect(read.getByTestId('try-it-response-body')).toContainText('"history": [');

  // The key survives a reload (sessionStorage).
  await page.reload();
  await expect(page.getByTestId('doc-api-key')).toHaveValue(key);

  // A wrong key is shown as the server's 401 answer.
  await page.getByTestId('doc-api-key').fill('hk_wrong');
  const fresh = page.getByTestId('operation-details').first();
  await fresh.getByTestId('try-it-send').click();
  await expect(fresh.getByTestId('try-it-status')).toContainText('401');
  await expect(fresh.getByTestId('try-it-response-body')).toContainText('apiKey.invalid');
});
