import { expect, type Locator, test } from '@playwright/test';
import { type ApiClient, apiClient, pickOption, signedIn } from './fixtures';

interface Campaign {
  id: number;
  name: string;
  state: string;
  total: number;
  counts: Record<string, number>;
}

/** A contact list with `size` e-mail contacts (none when 0). */
async function contactList(client: ApiClient, name: string, size: number): Promise<number> {
  const list = await client.post<{ id: number }>('/api/data/contact-lists', { name });
  for (let i = 1; i <= size; i++) {
    await client.post(`/api/data/contact-lists/${list.id}/contacts`, {
      email: `${name.toLowerCase().replaceAll(' ', '-')}-${i}@example.com`,
      name: `Customer ${i}`,
    });
  }
  return list.id;
}

async function emailTemplate(client: ApiClient, name: string): Promise<void> {
  await client.post('/api/data/templates', {
    name,
    channel: 'EMAIL',
    subject: 'Spring is here, {{ contact.name }}',
    html: '<h1>Hello {{ contact.name }}</h1><p>Our spring sale starts today.</p>',
  });
}

/** Every count shown per status adds up to the campaign's total. */
async function expectCountsAddUp(counts: Locator): Promise<number> {
  const total = Number(await counts.getAttribute('data-total'));
  const values = await counts
    .locator('[data-count]')
    .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-count'))));
  expect(values.reduce((sum, value) => sum + value, 0)).toBe(total);
  return total;
}

test('a campaign from the wizard to sent: empty list refused, live progress, counts, chart and log', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { token } = await signedIn(request, context, baseURL!);
  const client = apiClient(request, token);
  await contactList(client, 'Customers', 3);
  await contactList(client, 'Nobody', 0);
  await emailTemplate(client, 'spring-sale');

  await page.goto('/mass-mail/campaigns');
  await expect(page.getByTestId('campaigns-empty')).toBeVisible();
  await page.getByTestId('campaigns-create').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/create$/);

  // Type and name; a name is mandatory.
  await page.getByTestId('wizard-type-email').click();
  await expect(page.getByTestId('wizard-type-email')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-form')).toContainText('Mandatory field missing.');
  await page.getByTestId('wizard-name').fill('Spring sale');
  await page.getByTestId('wizard-next').click();

  // A list without contacts is refused with the spec's message.
  await pickOption(page, page.getByTestId('wizard-list'), 'Nobody');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-form')).toContainText('A campaign cannot be created with an empty contact list.');
  await pickOption(page, page.getByTestId('wizard-list'), 'Customers');
  await expect(page.getByTestId('wizard-list-summary')).toContainText('With an email address: 3 of 3 in the list.');
  await page.getByTestId('wizard-next').click();

  await pickOption(page, page.getByTestId('wizard-template'), 'spring-sale');
  await expect(page.getByTestId('wizard-preview')).toContainText('Spring is here');
  await expect(page.getByTestId('wizard-preview').locator('iframe')).toHaveAttribute('sandbox', '');
  await page.getByTestId('wizard-next').click();

  // The account's default e-mail configuration is chosen already.
  await expect(page.getByTestId('wizard-route-config')).toBeVisible();
  await expect(page.getByTestId('wizard-config')).toContainText('Sandbox e-mail');
  await page.getByTestId('wizard-next').click();

  // The saved draft's id is in the address: a reload reopens it instead of starting another draft.
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/create\?id=\d+$/);
  await expect(page.getByTestId('wizard-recipients')).toContainText('3');
  await page.reload();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-name')).toHaveValue('Spring sale');
  for (let step = 0; step < 4; step++) await page.getByTestId('wizard-next').click();

  // Check and send: three recipients, a test send through the sandbox, then send now.
  await expect(page.getByTestId('wizard-recipients')).toContainText('3');
  await expect(page.getByTestId('wizard-suppressed')).toContainText('0');
  // Without an address the test says what is missing.
  await page.getByTestId('wizard-test-send').click();
  await expect(page.getByTestId('wizard-test-missing')).toHaveText('Mandatory field missing.');
  await page.getByTestId('wizard-test-to').fill('me@example.com');
  await expect(page.getByTestId('wizard-test-missing')).toHaveCount(0);
  await page.getByTestId('wizard-test-send').click();
  await expect(page.getByTestId('wizard-test-result')).toContainText('The provider accepted the test for me@example.com.');
  await page.getByTestId('wizard-send-now').click();
  await page.getByTestId('wizard-start').click();

  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/view\/\d+$/);
  await expect(page.getByTestId('campaign-name')).toHaveText('Spring sale');
  // Its tab, breadcrumb and window title carry its name, not its number.
  await expect(page.getByTestId('breadcrumb')).toContainText('Spring sale');
  await expect(page.getByTestId(`tab-${new URL(page.url()).pathname}`)).toHaveText('Spring sale');
  await expect(page).toHaveTitle(/^Spring sale · /);
  await expect(page.getByTestId('campaign-view').getByTestId('campaign-state')).toHaveAttribute('data-state', 'sent', {
    timeout: 15_000,
  });
  const counts = page.getByTestId('campaign-counts');
  await expect(counts).toHaveAttribute('data-total', '3');
  expect(await expectCountsAddUp(counts)).toBe(3);
  // Receipts arrive two seconds after sending; the stream brings them without a reload.
  await expect(counts.getByTestId('campaign-count-sent')).toHaveCount(0, { timeout: 10_000 });
  expect(await expectCountsAddUp(counts)).toBe(3);
  await expect(page.getByTestId('campaign-chart').locator('svg')).toBeVisible();
  await expect(page.getByTestId('campaign-settings')).toContainText('Customers');
  await expect(page.getByTestId('campaign-settings')).toContainText('spring-sale');
  await expect(page.getByTestId('campaign-settings')).toContainText('Configuration “Sandbox e-mail”');

  // The list shows it settled, every message accounted for.
  await page.goto('/mass-mail/campaigns');
  const row = page.getByTestId('campaign-row-Spring sale');
  await expect(row.getByTestId('campaign-state')).toHaveAttribute('data-state', 'sent');
  await expect(row.getByTestId('campaign-progress')).toHaveAttribute('data-settled', '3');
  await expect(row.getByTestId('campaign-progress')).toHaveAttribute('data-total', '3');
  await expect(row.getByTestId('campaign-progress')).toContainText('100%');

  // The log lists every recipient; the status filter asks the server for one status.
  await row.getByTestId('campaign-log').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/statistics\/\d+$/);
  const table = page.getByTestId('campaign-log-table');
  for (let i = 1; i <= 3; i++) await expect(table).toContainText(`customers-${i}@example.com`);
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(3);
  await expect(table).toContainText('Sandbox e-mail');
  // A row opens that message's history, as the account's log does.
  await table.locator('tbody tr.ant-table-row').first().click();
  await expect(page.getByTestId('log-drawer')).toBeVisible();
  await expect(page.getByTestId('log-history').locator('[data-status="sent"]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('log-drawer')).toBeHidden();
  const id = Number(page.url().split('/').pop());
  const campaign = await client.get<Campaign>(`/api/data/campaigns/${id}`);
  const delivered = campaign.counts.delivered ?? 0;
  await pickOption(page, page.getByTestId('log-status-filter'), 'Delivered');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(delivered);
  if (delivered > 0) await expect(table.locator('tbody tr.ant-table-row').first()).toContainText('Delivered');

  // Duplicating from a campaign's own page opens the copy, a draft.
  await page.getByTestId('campaign-log').getByTestId('campaign-duplicate').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/view\/\d+$/);
  expect(Number(page.url().split('/').pop())).not.toBe(id);
  await expect(page.getByTestId('campaign-name')).toHaveText('Spring sale (copy)');
  await expect(page.getByTestId('campaign-view').getByTestId('campaign-state')).toHaveAttribute('data-state', 'draft');
  // Not started, it has no messages yet: the view counts its recipients as the wizard's check does, suppression applied.
  await expect(page.getByTestId('campaign-figure-recipients')).toContainText('Recipients');
  await expect(page.getByTestId('campaign-figure-recipients')).toContainText('3');
  await expect(page.getByTestId('campaign-settings')).toContainText('Contacts left out0');
  // An id no campaign has is said at once: a refusal is not asked again.
  await page.goto('/mass-mail/campaigns/view/987654');
  await expect(page.getByText('This campaign does not exist.')).toBeVisible({ timeout: 2_000 });
});

test('an SMS campaign from the wizard: parts, the estimated cost at the price per part against the balance, sent', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { token } = await signedIn(request, context, baseURL!);
  const client = apiClient(request, token);
  const list = await client.post<{ id: number }>('/api/data/contact-lists', { name: 'Phones' });
  for (let i = 1; i <= 3; i++) {
    await client.post(`/api/data/contact-lists/${list.id}/contacts`, { phone: `+38050123456${i}`, name: `Client ${i}` });
  }
  // Cyrillic over 70 characters: two parts a message.
  await client.post('/api/data/templates', {
    name: 'parcel-sms',
    channel: 'SMS',
    smsText: 'Здравствуйте! Ваш заказ собран и ждёт вас в пункте выдачи до конца недели. Спасибо!',
  });

  // The sandbox SMS configuration gets a price per part and a balance too small for the campaign.
  await page.goto('/configs/providers');
  const sandbox = page.getByTestId('provider-row-Sandbox SMS');
  await sandbox.getByTestId('provider-edit').click();
  await page.getByTestId('provider-field-pricePerPart').fill('0.1');
  await page.getByTestId('provider-field-balance').fill('0.5');
  await page.getByTestId('provider-save').click();
  // Saved, the configuration's balance is read again at once.
  await expect(page.getByTestId('provider-form')).toBeHidden();
  await expect(sandbox.getByTestId('provider-balance')).toHaveText('0.5 SBX');

  await page.goto('/mass-mail/campaigns/create');
  await page.getByTestId('wizard-type-sms').click();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-name').fill('Parcel ready');
  await page.getByTestId('wizard-next').click();
  await pickOption(page, page.getByTestId('wizard-list'), 'Phones');
  await page.getByTestId('wizard-next').click();
  await pickOption(page, page.getByTestId('wizard-template'), 'parcel-sms');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-config')).toContainText('Sandbox SMS');
  await page.getByTestId('wizard-next').click();

  await expect(page.getByTestId('wizard-recipients')).toContainText('3');
  await expect(page.getByTestId('wizard-sms-parts')).toContainText('2');
  await expect(page.getByTestId('wizard-estimated-parts')).toContainText('6');
  await expect(page.getByTestId('wizard-estimated-cost')).toContainText('0.6 SBX');
  await expect(page.getByTestId('wizard-estimated-cost')).toContainText('At the price per part of “Sandbox SMS”');
  await expect(page.getByTestId('wizard-balance-short')).toContainText(
    'The balance of “Sandbox SMS” (0.5 SBX) is below the estimated cost (0.6 SBX)',
  );
  await page.getByTestId('wizard-send-now').click();
  await page.getByTestId('wizard-start').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/view\/\d+$/);
  await expect(page.getByTestId('campaign-view').getByTestId('campaign-state')).toHaveAttribute('data-state', 'sent', {
    timeout: 15_000,
  });
  expect(await expectCountsAddUp(page.getByTestId('campaign-counts'))).toBe(3);
});

test('pause, resume and cancel a sending campaign; a duplicate is scheduled from the wizard', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { token } = await signedIn(request, context, baseURL!);
  const client = apiClient(request, token);
  // Two messages a day: the other three wait for tomorrow, so the campaign stays in sending.
  const limited = await client.post<{ id: number }>('/api/data/provider-configurations', {
    name: 'Limited e-mail',
    type: 'sandbox-email',
    limitPerDay: 2,
    settings: {},
  });
  await client.post('/api/data/provider-configurations', {
    name: 'Switched-off e-mail',
    type: 'sandbox-email',
    active: false,
    settings: {},
  });
  const listId = await contactList(client, 'Slow', 5);
  await emailTemplate(client, 'slow-news');
  const draft = await client.post<Campaign>('/api/data/campaigns', {
    name: 'Slow news',
    channel: 'EMAIL',
    listId,
    templateName: 'slow-news',
    configId: limited.id,
  });
  await client.post(`/api/data/campaigns/${draft.id}/start`, {});

  await page.goto('/mass-mail/campaigns');
  const row = page.getByTestId('campaign-row-Slow news');
  const progress = row.getByTestId('campaign-progress');
  await expect(progress).toHaveAttribute('data-total', '5', { timeout: 10_000 });
  await expect(progress).toHaveAttribute('data-settled', '2', { timeout: 10_000 });
  await expect(row.getByTestId('campaign-state')).toHaveAttribute('data-state', 'sending');
  // Its view says why it stays in sending, and until when.
  await row.getByTestId('campaign-view').click();
  await expect(page.getByTestId('campaign-limit-wait')).toContainText("Some messages wait for a provider's day limit");
  await page.goto('/mass-mail/campaigns');

  await row.getByTestId('campaign-pause').click();
  await expect(row.getByTestId('campaign-state')).toHaveAttribute('data-state', 'paused');
  await expect(row.getByTestId('campaign-pause')).toHaveCount(0);
  await row.getByTestId('campaign-resume').click();
  await expect(row.getByTestId('campaign-state')).toHaveAttribute('data-state', 'sending');

  // The filter by state finds it among the sending ones only.
  await pickOption(page, page.getByTestId('campaigns-state-filter'), 'Sent');
  await expect(page.getByTestId('campaigns')).toContainText('No campaigns in this state.');
  await pickOption(page, page.getByTestId('campaigns-state-filter'), 'Sending');
  await expect(row).toBeVisible();

  await row.getByTestId('campaign-cancel').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Cancel campaign' }).click();
  await expect(page.getByTestId('campaigns')).toContainText('No campaigns in this state.');
  await page.getByTestId('campaigns-state-filter').locator('.ant-select-clear').click();
  await expect(row.getByTestId('campaign-state')).toHaveAttribute('data-state', 'cancelled');
  await expect(row.getByTestId('campaign-progress')).toHaveAttribute('data-total', '5');

  // The view of the cancelled campaign still adds up, and its log says why the three waiting messages never go.
  await row.getByTestId('campaign-view').click();
  expect(await expectCountsAddUp(page.getByTestId('campaign-counts'))).toBe(5);
  await page.goto('/mass-mail/campaigns');
  await row.getByTestId('campaign-log').click();
  const rows = page.getByTestId('campaign-log-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ has: page.getByTestId('log-cancelled') })).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Not sent: the campaign was cancelled' }).first()).toContainText('day limit reached');
  // The account's e-mail log says the same of them.
  await page.goto('/statistics/email/log');
  const waiting = page
    .getByTestId('log-email')
    .getByTestId('log-provider-message')
    .filter({ hasText: 'Not sent: the campaign was cancelled' });
  await expect(waiting).toHaveCount(3);
  // And so does one message's drawer, above its history.
  await waiting.first().click();
  await expect(page.getByTestId('log-drawer-provider-message')).toContainText('Not sent: the campaign was cancelled');
  await page.goto('/mass-mail/campaigns');

  await row.getByTestId('campaign-duplicate').click();
  const copy = page.getByTestId('campaign-row-Slow news (copy)');
  await expect(copy.getByTestId('campaign-state')).toHaveAttribute('data-state', 'draft');
  await expect(copy.getByTestId('campaign-progress')).toContainText('Not started');

  // The copy reopens in the wizard with its settings and is scheduled in the account's time zone.
  await copy.getByTestId('campaign-edit').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/create\?id=\d+$/);
  await expect(page.getByTestId('breadcrumb')).toContainText('Edit “Slow news (copy)”');
  await expect(page.getByTestId('wizard-type-email')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-name')).toHaveValue('Slow news (copy)');
  await page.getByTestId('wizard-name').fill('Slow news again');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-list')).toContainText('Slow');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-template')).toContainText('slow-news');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-config')).toContainText('Limited e-mail');
  // A configuration that is switched off cannot carry the campaign.
  await pickOption(page, page.getByTestId('wizard-config'), 'Switched-off e-mail');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-form')).toContainText('A campaign needs at least one active configuration.');
  await pickOption(page, page.getByTestId('wizard-config'), 'Limited e-mail');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-recipients')).toContainText('5');
  // Its configuration sent its two of the day already: the check says the five will wait.
  await expect(page.getByTestId('wizard-limit-headroom')).toContainText('limits allow 0 more now; 5 will wait');
  await page.getByTestId('wizard-schedule').click();
  // The zone is named as the account settings name it, not by its IANA id ("Etc/GMT+12" reads as the opposite sign).
  await expect(page.getByTestId('wizard-form')).toContainText(
    "Date and time in your account's time zone: International Date Line West (UTC−12:00).",
  );
  const when = page.getByTestId('wizard-schedule-at');
  await when.fill('2030-01-15 09:30');
  await when.press('Enter');
  await page.getByTestId('wizard-start').click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/view\/\d+$/);
  await expect(page.getByTestId('campaign-view').getByTestId('campaign-state')).toHaveAttribute('data-state', 'scheduled');
  await expect(page.getByTestId('campaign-settings')).toContainText('2030-01-15 09:30:00');
  await expect(page.getByTestId('campaign-counts')).toContainText('No messages yet');

  // Edited while scheduled, it says that saving takes it off the schedule, and asks before a change is left unsaved.
  await page.goto('/mass-mail/campaigns');
  await page.getByTestId('campaign-row-Slow news again').getByTestId('campaign-edit').click();
  const warning = page.getByTestId('wizard-unschedule-warning');
  await expect(warning).toContainText('This campaign is scheduled for 2030-01-15 09:30.');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-name').fill('Slow news, later');
  await page.getByRole('button', { name: 'All campaigns' }).click();
  await page.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/mass-mail\/campaigns\/create\?id=\d+$/);
  for (let step = 0; step < 4; step++) await page.getByTestId('wizard-next').click();
  await expect(warning).toContainText('Taken off its schedule (2030-01-15 09:30)');
  const edited = (await client.get<{ items: Campaign[] }>('/api/data/campaigns')).items.find(
    (c) => c.name === 'Slow news, later',
  );
  expect(edited?.state).toBe('draft');
  // The time it had is offered again.
  await expect(page.getByTestId('wizard-schedule-at')).toHaveValue('2030-01-15 09:30');
  await page.getByTestId('wizard-start').click();
  await expect(page.getByTestId('campaign-view').getByTestId('campaign-state')).toHaveAttribute('data-state', 'scheduled');
});
