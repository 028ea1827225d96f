import { type APIRequestContext, type BrowserContext, expect, type Locator, type Page } from '@playwright/test';

export const PASSWORD = 'Herald123';

let counter = 0;
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

/** Signs up through the API and puts the token where the console keeps it, to skip the forms. */
export async function signedIn(
  request: APIRequestContext,
  context: BrowserContext,
  baseURL: string,
  role: 'site' | 'api' = 'site',
): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('api');
  const res = await request.post('/api/data/users', {
    data: { email, password: PASSWORD, timeZone: { id: '001', offset: -12 }, role },
  });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await context.addCookies([{ name: 'Admin-Token', value: token, url: baseURL }]);
  return { email, token };
}

export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard')).toBeVisible();
}

/** The HTTP API as the signed-in user: each call must answer 200 and gives its JSON. */
export function apiClient(request: APIRequestContext, token: string) {
  const headers = { 'X-Token': token };
  return {
    async post<T>(path: string, data: unknown): Promise<T> {
      const res = await request.post(path, { headers, data });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
      return (await res.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(path, { headers });
      expect(res.status()).toBe(200);
      return (await res.json()) as T;
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** Opens a select and picks the option with this title. */
export async function pickOption(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

/** Opens a dropdown menu and clicks this item once the menu has finished sliding open. */
export async function pickMenuItem(trigger: Locator, item: Locator): Promise<void> {
  await trigger.click();
  // A click retried on the sliding item scrolls the page, and the menu follows the sticky header a frame late: a miss.
  await expect(item.page().locator('.ant-dropdown:not([class*="ant-slide-up"])').filter({ has: item })).toBeVisible();
  await item.click();
}
