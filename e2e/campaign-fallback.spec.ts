import { expect, test } from '@playwright/test';
import { pickOption, signedIn } from './fixtures';

test('the configurations step sets a fallback to SMS, shown in the check and saved on the campaign', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { token } = await signedIn(request, context, baseURL!);
  const headers = { 'X-Token': token };
  const list = await (await request.post('/api/data/contact-lists', { headers, data: { name: 'Members' } })).json();
  expect(
    (
      await request.post(`/api/data/contact-lists/${list.id}/contacts`, {
        headers,
        data: { email: 'olena@example.com', phone: '+380501112233', name: 'Olena' },
      })
    ).status(),
  ).toBe(200);
  for (const data of [
    { name: 'renewal', channel: 'EMAIL', subject: 'Your plan renews', html: '<p>Hello {{ contact.name }}</p>' },
    { name: 'renewal-sms', channel: 'SMS', smsText: 'Hello {{ contact.name }}, your plan renews soon.' },
  ]) {
    expect((await request.post('/api/data/templates', { headers, data })).status()).toBe(200);
  }

  await page.goto('/mass-mail/campaigns/create');
  await page.getByTestId('wizard-type-email').click();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-name').fill('Renewal');
  await page.getByTestId('wizard-next').click();
  await pickOption(page, page.getByTestId('wizard-list'), 'Members');
  await page.getByTestId('wizard-next').click();
  await pickOption(page, page.getByTestId('wizard-template'), 'renewal');
  await page.getByTestId('wizard-next').click();

  // Off by default; switched on, it needs an SMS template and an SMS configuration.
  const fallback = page.getByTestId('wizard-fallback');
  await expect(fallback).toContainText('Fall back to SMS');
  await expect(page.getByTestId('wizard-fallback-template')).toHaveCount(0);
  await page.getByTestId('wizard-fallback-switch').click();
  await page.getByTestId('wizard-next').click();
  await expect(fallback).toContainText('Mandatory field missing.');
  await pickOption(page, page.getByTestId('wizard-fallback-template'), 'renewal-sms');
  await pickOption(page, page.getByTestId('wizard-fallback-config'), 'Sandbox SMS');
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-recipients')).toContainText('1');
  await expect(page.getByTestId('campaign-wizard')).toContainText('By SMS with “renewal-sms”');
  const campaigns = await (await request.get('/api/data/campaigns', { headers })).json();
  const saved = campaigns.items.find((item: { name: string }) => item.name === 'Renewal');
  expect(saved.fallback).toMatchObject({ channel: 'SMS', templateName: 'renewal-sms', groupId: null });
  expect(saved.fallback.configId).toEqual(expect.any(Number));

  // Reopened, the draft shows the fallback as saved.
  await page.goto(`/mass-mail/campaigns/create?id=${saved.id}`);
  await page.getByText('Configurations', { exact: true }).first().click();
  await expect(page.getByTestId('wizard-fallback-switch')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('wizard-fallback-template')).toContainText('renewal-sms');
});
