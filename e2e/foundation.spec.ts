import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectDashboard, PASSWORD, pickMenuItem, signedIn, uniqueEmail } from './fixtures';

test('sign up, log out, fail a log-in, then log in', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');
  await page.getByTestId('signup-email').fill(email);
  await page.getByTestId('signup-password').fill(PASSWORD);
  await page.getByTestId('signup-confirm').fill(PASSWORD);
  await page.getByTestId('signup-role-site').click();
  await page.getByTestId('signup-submit').click();
  await expectDashboard(page);

  await pickMenuItem(page.getByTestId('avatar-menu'), page.getByTestId('avatar-menu-logout'));
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard/);

  await page.getByTestId('login-username').fill(`  ${email}  `);
  await page.getByTestId('login-password').fill('Wrong1234');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Login failed. Please check your username and/or password.')).toBeVisible();

  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expectDashboard(page);
});

test('a language picked on the login page wins over the one saved on the account, and is saved', async ({ page, request }) => {
  const email = uniqueEmail('lang');
  const signup = await request.post('/api/data/users', {
    data: { email, password: PASSWORD, timeZone: { id: '001', offset: -12 } },
  });
  const { token } = (await signup.json()) as { token: string };
  const saved = await request.post('/api/data/users/change-language', {
    headers: { 'X-Token': token },
    data: { language: 'ru' },
  });
  expect(saved.status()).toBe(200);

  await page.goto('/login');
  await page.getByTestId('language-option-uk').click();
  await page.getByTestId('login-username').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expectDashboard(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
  const me = await request.get('/api/data/users', { headers: { 'X-Token': token } });
  expect(((await me.json()) as { language: string }).language).toBe('uk');
});

test('signup refuses a weak password with the spec message', async ({ page }) => {
  await page.goto('/signup');
  await page.getByTestId('signup-email').fill(uniqueEmail('weak'));
  await page.getByTestId('signup-password').fill('short1A');
  await page.getByTestId('signup-password').blur();
  await expect(page.getByText('Password should have at least 8 characters')).toBeVisible();
});

test('a guarded page sends a visitor to login with the full path, then back to it', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await page.goto('/configs/groups?category=SMS');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fconfigs%2Fgroups%3Fcategory%3DSMS/);
  await signedIn(request, context, baseURL!);
  await page.reload();
  await expect(page).toHaveURL(/\/configs\/groups\?category=SMS/);
});

test('switch the language to Russian and back to English', async ({ page, request, context, baseURL }) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/dashboard');
  const sidebar = page.getByTestId('sidebar');
  const english = await sidebar.textContent();

  await pickMenuItem(page.getByTestId('language-select'), page.getByTestId('lang-option-ru'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect.poll(() => sidebar.textContent()).not.toBe(english);
  await expect(page.getByText('Язык изменён')).toBeVisible();

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');

  await pickMenuItem(page.getByTestId('language-select'), page.getByTestId('lang-option-en'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect.poll(() => sidebar.textContent()).toBe(english);
});

test('open tabs, close one, close all but the dashboard', async ({ page, request, context, baseURL }) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/configs/providers');
  await expect(page.getByTestId('tab-/configs/providers')).toBeVisible();
  await pickMenuItem(page.getByTestId('avatar-menu'), page.getByTestId('avatar-menu-account'));
  await expect(page).toHaveURL(/\/settings\/account$/);
  await expect(page.getByTestId('tab-/settings/account')).toBeVisible();
  await expect(page.getByTestId('tab-/configs/providers')).toBeVisible();

  const providersTab = page.locator('.ant-tabs-tab').filter({ has: page.getByTestId('tab-/configs/providers') });
  await providersTab.getByTestId('tab-close').click();
  await expect(page.getByTestId('tab-/configs/providers')).toHaveCount(0);
  await expect(page.getByTestId('tab-/settings/account')).toBeVisible();

  await page.getByTestId('tabs-close-all').click();
  await expect(page.getByTestId('tab-/settings/account')).toHaveCount(0);
  await expect(page.getByTestId('tab-/dashboard')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('feedback refuses a wrong file type, then sends', async ({ page, request, context, baseURL }) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/dashboard');
  await page.getByTestId('feedback-button').click();
  const modal = page.getByTestId('feedback-modal');
  await expect(modal).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();

  const textFile = path.join(tmpdir(), 'not-an-image.txt');
  writeFileSync(textFile, 'plain text');
  await modal.locator('input[type=file]').setInputFiles(textFile);
  await expect(page.getByText('Wrong file type or format.')).toBeVisible();
  await expect(modal.locator('.ant-upload-list-item')).toHaveCount(0);

  await page.getByTestId('feedback-name').fill('Ada');
  await page.getByTestId('feedback-email').fill('ada@example.com');
  await page.getByTestId('feedback-desc').fill('The console is lovely.');
  // A .png name on bytes that are no image passes the browser's check; the server's verdict names it the same way.
  await expect(page.getByText('Wrong file type or format.')).toBeHidden();
  const disguised = path.join(tmpdir(), 'disguised.png');
  writeFileSync(disguised, 'GIF89a not a png');
  await modal.locator('input[type=file]').setInputFiles(disguised);
  await expect(modal.locator('.ant-upload-list-item')).toHaveCount(1);
  await page.getByTestId('feedback-send').click();
  await expect(page.getByText('Wrong file type or format.')).toBeVisible();
  await expect(modal.locator('.ant-upload-list-item')).toHaveCount(0);
  await page.getByTestId('feedback-send').click();
  await expect(page.getByText('Thank you! Your feedback has been sent.')).toBeVisible();
  await expect(modal).toBeHidden();
});

test('an unknown route shows the 404 page', async ({ page, request, context, baseURL }) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('The page you requested could not be found.')).toBeVisible();
});

test('a route outside the role goes to 401 without a history entry', async ({ page, request, context, baseURL }) => {
  // /401 is not a public route: without a session it asks for a login first.
  await page.goto('/401');
  await expect(page).toHaveURL(/\/login\?redirect=%2F401$/);
  await signedIn(request, context, baseURL!, 'api');
  await page.goto('/dashboard');
  await page.goto('/mass-mail/campaigns');
  await expect(page).toHaveURL(/\/401$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
});
