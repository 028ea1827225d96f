import { expect, test } from '@playwright/test';
import { apiClient, pickOption, signedIn } from './fixtures';

const RECIPIENTS = ['stats-1@example.com', 'stats-2@example.com', 'stats-3@example.com', 'stats-4@example.com'];

test('a sandbox campaign shows up in the reports with charts and totals, and in the log with filters and history', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { token } = await signedIn(request, context, baseURL!);
  const client = apiClient(request, token);
  const configs = await client.get<{ id: number; type: string }[]>('/api/data/provider-configurations/custom');
  const sandbox = configs.find((config) => config.type === 'sandbox-email')!;
  const list = await client.post<{ id: number }>('/api/data/contact-lists', { name: 'Stats' });
  for (const email of RECIPIENTS) await client.post(`/api/data/contact-lists/${list.id}/contacts`, { email });
  await client.post('/api/data/templates', { name: 'stats-news', channel: 'EMAIL', subject: 'News', html: '<p>News</p>' });
  const campaign = await client.post<{ id: number }>('/api/data/campaigns', {
    name: 'Stats campaign',
    channel: 'EMAIL',
    listId: list.id,
    templateName: 'stats-news',
    configId: sandbox.id,
  });
  await client.post(`/api/data/campaigns/${campaign.id}/start`, {});
  // The sandbox answers each message with a delivery receipt a couple of seconds later.
  await expect
    .poll(
      async () => {
        const counts = (await client.get<{ counts: Record<string, number> }>(`/api/data/campaigns/${campaign.id}`)).counts;
        return (counts.delivered ?? 0) + (counts.undelivered ?? 0);
      },
      { timeout: 30_000 },
    )
    .toBe(4);
  const counts = (await client.get<{ counts: Record<string, number> }>(`/api/data/campaigns/${campaign.id}`)).counts;
  const delivered = counts.delivered ?? 0;

  await page.goto('/statistics/email/reports');
  await expect(page.getByTestId('reports-total-total')).toContainText('4');
  await expect(page.getByTestId('reports-total-reached')).toContainText(String(delivered));
  await expect(page.getByTestId('reports-total-deliveryRate')).toContainText('%');
  const perDay = page.getByTestId('reports-chart-days-canvas');
  await expect(perDay.locator('svg')).toBeVisible();
  await expect(perDay.locator('svg path').first()).toBeAttached();
  await expect(page.getByTestId('reports-chart-campaigns')).toContainText('Stats campaign');
  await expect(page.getByTestId('reports-chart-configs').locator('svg')).toBeVisible();
  // Thirty days hold the same messages; the figures are read again for the new period.
  await page.getByTestId('reports-days').getByText('Last 30 days').click();
  await expect(page.getByTestId('reports-total-total')).toContainText('4');
  const download = page.waitForEvent('download');
  await page.getByTestId('reports-csv').click();
  expect((await download).suggestedFilename()).toMatch(/^herald-email-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);

  await page.getByRole('button', { name: 'Message log' }).click();
  await expect(page).toHaveURL(/\/statistics\/email\/log$/);
  const table = page.getByTestId('log-table');
  const rows = table.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(4);
  await expect(page.getByTestId('log-total')).toHaveText('4 messages');
  for (const email of RECIPIENTS) await expect(table).toContainText(email);
  await expect(table).toContainText('stats-news');
  await expect(table).toContainText('Sandbox e-mail');

  await pickOption(page, page.getByTestId('log-status'), 'Delivered');
  await expect(rows).toHaveCount(delivered);
  await page.getByTestId('log-status').locator('.ant-select-clear').click();
  await expect(rows).toHaveCount(4);
  await page.getByTestId('log-recipient').locator('input').fill('stats-3@example.com');
  await page.getByTestId('log-recipient').locator('input').press('Enter');
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('log-total')).toHaveText('1 message');

  await rows.first().click();
  const drawer = page.getByTestId('log-drawer');
  await expect(drawer).toContainText('stats-3@example.com');
  await expect(drawer).toContainText('Stats campaign');
  const history = page.getByTestId('log-history-entry');
  await expect(history).toHaveCount(3);
  await expect(history.nth(0)).toHaveAttribute('data-status', 'unsent');
  await expect(history.nth(1)).toHaveAttribute('data-status', 'sent');
  await expect(history.nth(2)).toHaveAttribute('data-status', /^(delivered|undelivered)$/);

  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-messages-today-value')).toHaveText('4');
  await expect(page.getByTestId('dashboard-chart-canvas').locator('svg')).toBeVisible();
  await expect(page.getByTestId('dashboard-balance').first()).toBeVisible();
});
