import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signedIn } from './fixtures';

interface Config {
  id: number;
  name: string;
  type: string;
}

async function listConfigs(request: APIRequestContext, token: string): Promise<Config[]> {
  const res = await request.get('/api/data/provider-configurations/custom', { headers: { 'X-Token': token } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Config[];
}

async function pickType(page: Page, label: string): Promise<void> {
  await page.getByTestId('provider-type-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: label }).click();
}

test('provider configurations: balances, create with a connection test, duplicate name, edit, inbox, delete', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/configs/providers');

  const sandboxEmail = page.getByTestId('provider-row-Sandbox e-mail');
  const sandboxSms = page.getByTestId('provider-row-Sandbox SMS');
  await expect(sandboxEmail).toContainText('Sandbox e-mail');
  await expect(sandboxEmail.getByTestId('provider-balance')).toHaveText('1,000 SBX');
  await expect(sandboxSms.getByTestId('provider-balance')).toHaveText('1,000 SBX');
  await expect(sandboxSms).toContainText('updated just now');
  await expect(sandboxSms.getByTestId('provider-default')).toHaveAttribute('data-default', 'true');

  // Create a sandbox SMS configuration and test its connection before saving.
  await page.getByTestId('providers-add').click();
  const form = page.getByTestId('provider-form');
  await expect(form).toBeVisible();
  await pickType(page, 'Sandbox SMS');
  await expect(page.getByTestId('provider-field-sender')).toHaveValue('Herald');
  await page.getByTestId('provider-name').fill('Backup SMS');
  await page.getByTestId('provider-test').click();
  const result = page.getByTestId('provider-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('Connection works');
  await expect(result).toContainText('sandbox: messages stay inside Herald');
  await page.getByTestId('provider-save').click();
  await expect(form).toBeHidden();
  const backup = page.getByTestId('provider-row-Backup SMS');
  await expect(backup).toContainText('Active');
  await expect(backup).toContainText('All recipients');

  // A second configuration under an existing name is refused on the name field.
  await page.getByTestId('providers-add').click();
  await pickType(page, 'Sandbox SMS');
  await page.getByTestId('provider-name').fill('Sandbox SMS');
  await page.getByTestId('provider-save').click();
  const nameItem = form.locator('.ant-form-item').filter({ has: page.getByTestId('provider-name') });
  await expect(nameItem).toContainText('This name already exists.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toBeHidden();

  // Edit: rename, set a daily limit and an operator filter (letters are refused before anything is sent).
  await backup.getByTestId('provider-edit').click();
  await expect(page.getByTestId('provider-name')).toHaveValue('Backup SMS');
  await expect(page.getByTestId('provider-type-select')).toHaveClass(/ant-select-disabled/);
  await page.getByTestId('provider-name').fill('Reserve SMS');
  // A number beyond its range is refused with the range, not quietly changed into the nearest bound.
  const share = page.getByTestId('provider-field-deliveredShare');
  await share.fill('150');
  await page.getByTestId('provider-save').click();
  await expect(form).toContainText('Must be between 0 and 100');
  await expect(share).toHaveValue('150');
  await share.fill('90');
  await page.getByTestId('provider-limit-day').fill('100');
  await page.getByTestId('provider-filter-add').click();
  await page.getByTestId('provider-filter-kind-0').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Operator codes' }).click();
  // The value field turns from a country select into a text input once the kind is applied.
  const operatorCodes = page.locator('input[data-testid="provider-filter-value-0"]');
  await operatorCodes.fill('25, abc');
  await page.getByTestId('provider-save').click();
  await expect(form).toContainText('Operator codes may contain digits, spaces and commas only');
  await operatorCodes.fill('25, 29');
  await page.getByTestId('provider-save').click();
  await expect(form).toBeHidden();
  const reserve = page.getByTestId('provider-row-Reserve SMS');
  await expect(reserve).toContainText('100 a day');
  await expect(reserve).toContainText('Operators 25, 29');
  await expect(backup).toHaveCount(0);

  // Its inbox: nothing has been sent through the sandbox yet.
  await reserve.getByTestId('provider-inbox').click();
  await expect(page.getByTestId('sandbox-inbox')).toBeVisible();
  await expect(page.getByTestId('sandbox-inbox-empty')).toContainText('The sandbox has not kept any SMS yet.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('sandbox-inbox')).toBeHidden();

  await reserve.getByTestId('provider-delete').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(reserve).toHaveCount(0);
  await expect(sandboxSms).toBeVisible();
});

test('provider groups: no group without configs, then an SMS group in dragged order', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!);
  const created = await request.post('/api/data/provider-configurations', {
    headers: { 'X-Token': token },
    data: { name: 'Reserve SMS', type: 'sandbox-sms', settings: {} },
  });
  expect(created.status()).toBe(200);
  const reserve = (await created.json()) as Config;
  const sandbox = (await listConfigs(request, token)).find((config) => config.name === 'Sandbox SMS')!;

  await page.goto('/configs/groups?category=SMS');
  await expect(page.getByTestId('groups-empty')).toBeVisible();
  await page.getByTestId('groups-add').click();
  const form = page.getByTestId('group-form');
  await page.getByTestId('group-name').fill('Main route');
  await page.getByTestId('group-save').click();
  await expect(form).toContainText('A config group cannot be created without configs.');

  const first = page.getByTestId(`group-config-${sandbox.id}`);
  const second = page.getByTestId(`group-config-${reserve.id}`);
  await expect(first).toHaveAttribute('data-priority', '99');
  await first.getByRole('checkbox').check();
  await second.getByRole('checkbox').check();
  await expect(form).not.toContainText('A config group cannot be created without configs.');
  await expect(first).toHaveAttribute('data-priority', '1');
  await expect(second).toHaveAttribute('data-priority', '2');

  await second.dragTo(first);
  await expect(second).toHaveAttribute('data-priority', '1');
  await expect(first).toHaveAttribute('data-priority', '2');
  await page.getByTestId('group-save').click();
  await expect(form).toBeHidden();

  const row = page.getByTestId('group-row-Main route');
  await expect(row.getByTestId('group-member')).toHaveText(['1Reserve SMS', '2Sandbox SMS']);

  // Reopened for editing, the list keeps the saved order.
  await row.getByTestId('group-edit').click();
  await expect(page.getByTestId(`group-config-${reserve.id}`)).toHaveAttribute('data-priority', '1');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await row.getByTestId('group-delete').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('groups-empty')).toBeVisible();
});
