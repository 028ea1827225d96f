import path from 'node:path';
import { expect, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { signedIn } from './fixtures';

/** There is no API to make an admin (the first-start account is one), so the test promotes a user in the database. */
function promote(email: string): void {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'herald.db'));
  try {
    db.prepare('update accounts set is_admin = 1 where email = ?').run(email);
  } finally {
    db.close();
  }
}

test('an admin reads user feedback and the system mail', async ({ page, request, context, baseURL }) => {
  const user = await signedIn(request, context, baseURL!);
  await request.get(`/api/data/users/restore-password?email=${encodeURIComponent(user.email)}`);
  await page.goto('/dashboard');
  await page.getByTestId('feedback-button').click();
  await page.getByTestId('feedback-name').fill('Grace');
  await page.getByTestId('feedback-email').fill('grace@example.com');
  await page.getByTestId('feedback-desc').fill('Please add dark mode.');
  await page.getByTestId('feedback-send').click();
  await expect(page.getByTestId('feedback-modal')).toBeHidden();
  await expect(page.getByTestId('sidebar')).not.toContainText('Administration');

  promote(user.email);
  await page.goto('/admin/feedback');
  await expect(page.getByTestId('sidebar')).toContainText('Administration');
  await expect(page.getByTestId('admin-feedback')).toContainText('Please add dark mode.');

  await page.goto('/admin/outbox');
  await expect(page.getByTestId('admin-outbox')).toContainText(user.email);
  await expect(page.getByTestId('admin-outbox')).toContainText('Herald: reset your password');
});
