import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startIdentityProvider } from '../apps/server/test/sso/identity-provider';
import { PASSWORD, signedIn } from './fixtures';

/** A local HTTP server standing in for Slack's incoming webhook: it records every post and answers ok. */
async function slackReceiver(): Promise<{ url: string; posts: { body: Record<string, unknown> }[]; close(): Promise<void> }> {
  const posts: { body: Record<string, unknown> }[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    request.on('end', () => {
      posts.push({ body: JSON.parse(raw) as Record<string, unknown> });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/e2e`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('notifications: a non-https Slack URL is refused on the field, the test button posts to a local receiver, settings are saved', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const receiver = await slackReceiver();
  try {
    const { token } = await signedIn(request, context, baseURL!);
    // The spec's /settings base redirect goes to an existing child.
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/settings\/notifications$/);
    await expect(page.getByTestId('notifications')).toBeVisible();

    const url = page.getByTestId('hook-slack-url');
    await url.fill('http://hooks.slack.com/services/T1/B2/C3');
    await url.blur();
    await expect(page.getByText('Enter a Slack webhook address starting with https://')).toBeVisible();
    await page.getByTestId('hook-save').click();
    await expect(page.getByText('Enter a Slack webhook address starting with https://')).toBeVisible();
    const unsaved = await request.get('/api/data/hooks/settings', { headers: { 'X-Token': token } });
    expect(await unsaved.json()).toMatchObject({ configured: false });

    await url.fill(receiver.url);
    await page.getByTestId('hook-sender-name').fill('Herald E2E');
    await page.getByTestId('hook-test').click();
    await expect(page.getByText('The test message reached Slack')).toBeVisible();
    expect(receiver.posts).toHaveLength(1);
    expect(receiver.posts[0]!.body).toEqual({
      text: expect.stringContaining('Test notification from Herald'),
      username: 'Herald E2E',
    });
    const log = page.getByTestId('hook-log');
    await expect(log).toContainText('Test message');
    await expect(log).toContainText('Delivered');
    await expect(log).toContainText('HTTP 200');

    await page.getByTestId('hook-event-campaign.started').check();
    await page.getByTestId('hook-event-balance.low').check();
    await page.getByTestId('hook-balance-threshold').fill('25');
    await page.getByTestId('hook-save').click();
    await expect(page.getByText('Notification settings saved')).toBeVisible();
    const saved = await request.get('/api/data/hooks/settings', { headers: { 'X-Token': token } });
    expect(await saved.json()).toMatchObject({
      configured: true,
      slackUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/…\/e2e$/),
      senderName: 'Herald E2E',
      events: expect.arrayContaining(['campaign.started', 'balance.low']),
      balanceThreshold: 25,
    });

    // After a reload the URL is not shown back, only its masked form.
    await page.reload();
    await expect(page.getByTestId('hook-slack-url')).toHaveAttribute('placeholder', /…\/e2e$/);
    await expect(page.getByTestId('hook-event-campaign.started')).toBeChecked();
  } finally {
    await receiver.close();
  }
});

test('account: password change with field errors, then deletion after typing the e-mail signs the user out', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { email } = await signedIn(request, context, baseURL!);
  await page.goto('/settings/account');
  await expect(page.getByTestId('account-email')).toHaveText(email);

  // A weak new password is refused before anything is sent.
  await page.getByTestId('account-old-password').fill(PASSWORD);
  await page.getByTestId('account-new-password').fill('alllowercase1');
  await page.getByTestId('account-confirm-password').fill('alllowercase1');
  await page.getByTestId('account-password-save').click();
  await expect(page.getByText('Password must contain at least one digit, one lowercase and one uppercase letter')).toBeVisible();

  // A wrong current password comes back from the server on its field.
  await page.getByTestId('account-old-password').fill('Wrong1234');
  await page.getByTestId('account-new-password').fill('Better123');
  await page.getByTestId('account-confirm-password').fill('Better123');
  await page.getByTestId('account-password-save').click();
  await expect(page.getByText('The current password is wrong')).toBeVisible();

  await page.getByTestId('account-old-password').fill(PASSWORD);
  await page.getByTestId('account-password-save').click();
  await expect(page.getByText('Password changed. Other devices have been signed out.')).toBeVisible();
  const relogin = await request.post('/api/login', { form: { username: email, password: 'Better123' } });
  expect(relogin.status()).toBe(200);

  // The display name shows in the top bar.
  await page.getByTestId('account-name').fill('Olena');
  await page.getByTestId('account-profile-save').click();
  await expect(page.getByText('Your account settings are saved')).toBeVisible();
  await expect(page.getByTestId('avatar-menu')).toContainText('Olena');

  await page.getByTestId('account-delete-open').click();
  await page.getByTestId('account-delete-confirmation').fill('someone@else.example');
  await page.getByTestId('account-delete-confirm').click();
  await expect(page.getByText('Type your e-mail address exactly to confirm the deletion')).toBeVisible();
  await page.getByTestId('account-delete-confirmation').fill(email);
  await page.getByTestId('account-delete-confirm').click();
  await expect(page).toHaveURL(/\/login/);
  const gone = await request.post('/api/login', { form: { username: email, password: 'Better123' } });
  expect(gone.status()).toBe(401);
});

/** A Herald of its own with OIDC configured, next to the suite's server (port E2E_PORT + 1000). */
async function startHeraldWithSso(issuer: string, clientId: string, clientSecret: string, port: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'herald-e2e-sso-'));
  const child: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js', 'serve'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_LABEL: 'Test IdP',
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the SSO Herald did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test('single sign-on: the login page offers it only when configured, and the whole code flow ends signed in', async ({
  page,
}) => {
  // It starts an identity provider and a second Herald of its own: ~20 s on an idle machine.
  test.setTimeout(60_000);
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await expect(page.getByTestId('login-sso')).toHaveCount(0);
  // A sign-on that could not start comes back with a message key; anything else in the link is not shown.
  await page.goto('/login?ssoError=sso.unavailable');
  await expect(page.getByTestId('login-error')).toContainText('The identity provider cannot be reached right now');
  await page.goto(`/login?ssoError=${encodeURIComponent('Call +1 555 0100 now')}`);
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await expect(page.getByText('Call +1 555 0100 now')).toHaveCount(0);

  const port = Number(process.env.E2E_PORT ?? 3111) + 1000;
  const idp = await startIdentityProvider(`http://127.0.0.1:${port}/authredirect`, {});
  const herald = await startHeraldWithSso(idp.issuer, idp.clientId, idp.clientSecret, port);
  try {
    await page.goto(`${herald.url}/login?redirect=${encodeURIComponent('/settings/account')}`);
    const sso = page.getByTestId('login-sso');
    await expect(sso).toHaveText('Log in with Test IdP');
    await sso.click();

    // The identity provider's own (development) screens: log in, then consent.
    await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill('sso.user@example.com');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();

    await expect(page).toHaveURL(`${herald.url}/settings/account`);
    await expect(page.getByTestId('account-email')).toHaveText('sso.user@example.com');
  } finally {
    await herald.stop();
    await idp.close();
  }
});
