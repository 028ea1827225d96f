import { readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signedIn } from './fixtures';

/** Semicolons, a quoted value holding a comma, Cyrillic, an unknown header title, and one bad e-mail on line 4. */
function customersCsv(): string {
  const lines = [
    'E-mail;Customer;City;Phone',
    '"anna@example.com";"Smith, Anna";Kyiv;+380501234567',
    'olena@example.com;Олена Шевченко;Lviv;',
    'not-an-email;Broken Row;Odesa;',
  ];
  for (let index = 1; index <= 12; index++) {
    const n = String(index).padStart(2, '0');
    lines.push(`user${n}@example.com;User ${n};Kharkiv;`);
  }
  return `${lines.join('\n')}\n`;
}

async function pick(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
  // The next pick must not find this dropdown while it fades out.
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

async function confirm(page: Page, button: string): Promise<void> {
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: button }).click();
}

test('contacts: create a list, import a CSV through the wizard, browse, edit, unsubscribe and export', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await signedIn(request, context, baseURL!);
  await page.goto('/mass-mail/contacts');
  await expect(page.getByTestId('contact-lists-empty')).toBeVisible();

  await page.getByTestId('contact-lists-add').click();
  await page.getByTestId('contact-list-name').fill('Customers');
  await page.getByTestId('contact-list-save').click();
  const row = page.getByTestId('contact-list-row-Customers');
  await expect(row.getByTestId('contact-list-count-total')).toHaveText('0');

  // Upload: the wizard opens on the chosen list and keeps the import in the address.
  await row.getByTestId('contact-list-import').click();
  await expect(page).toHaveURL(/\/mass-mail\/contacts\/import\?list=\d+$/);
  await page
    .getByTestId('import-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(customersCsv()) });
  await expect(page).toHaveURL(/[?&]import=\d+/);

  const preview = page.getByTestId('import-preview-table');
  await expect(preview.locator('.ant-table-row')).toHaveCount(10);
  await expect(preview).toContainText('Smith, Anna');
  await expect(preview).toContainText('Олена Шевченко');
  await expect(page.getByTestId('import-encoding')).toContainText('UTF-8');
  await expect(page.getByTestId('import-separator')).toContainText('Semicolon');
  await expect(page.getByTestId('import-header')).toBeChecked();

  // "Customer" names no field, so it came as an attribute; map it to the name instead.
  await expect(page.getByTestId('import-mapping-0')).toContainText('E-mail');
  await expect(page.getByTestId('import-mapping-1')).toContainText('Attribute');
  await expect(page.getByTestId('import-mapping-3')).toContainText('Phone');
  await pick(page, 'import-mapping-1', 'Name');
  await page.getByTestId('import-attribute-2').fill('city');

  // A mapping with neither e-mail nor phone cannot start.
  await pick(page, 'import-mapping-0', 'Skip this column');
  await pick(page, 'import-mapping-3', 'Skip this column');
  await expect(page.getByTestId('import-mapping-problem')).toContainText('Choose the column with e-mails');
  await expect(page.getByTestId('import-start')).toBeDisabled();
  await pick(page, 'import-mapping-0', 'E-mail');
  await pick(page, 'import-mapping-3', 'Phone');
  await expect(page.getByTestId('import-mapping-problem')).toHaveCount(0);

  await expect(page.getByTestId('import-mode').getByRole('radio', { checked: true })).toHaveValue('add');
  await page.getByTestId('import-start').click();

  const report = page.getByTestId('import-report');
  await expect(report).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('import-report-imported')).toContainText('14');
  await expect(page.getByTestId('import-invalid-rows')).toContainText('Invalid e-mail: not-an-email');
  await expect(page.getByTestId('import-invalid-line')).toHaveText(['4']);

  // The report survives a reload: the import is in the address.
  await page.reload();
  await expect(report).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('import-report-imported')).toContainText('14');
  await expect(page.getByTestId('import-invalid-line')).toHaveText(['4']);

  const reportDownload = page.waitForEvent('download');
  await page.getByTestId('import-report-download').click();
  const reportFile = await reportDownload;
  expect(reportFile.suggestedFilename()).toBe('customers-report.csv');
  const reportText = readFileSync((await reportFile.path())!, 'utf8');
  expect(reportText).toContain('line,reason,row');
  expect(reportText).toContain('4,Invalid e-mail: not-an-email,not-an-email;Broken Row;Odesa;');

  // The view: ten contacts a page, out of fourteen.
  await page.getByTestId('import-report-view').click();
  await expect(page).toHaveURL(/\/mass-mail\/contacts\/view\/\d+$/);
  // Its breadcrumb names the list, not its number.
  await expect(page.getByTestId('breadcrumb')).toContainText('Customers');
  const table = page.getByTestId('contacts-table');
  await expect(table.locator('.ant-table-row')).toHaveCount(10);
  await expect(page.getByTestId('contacts-count-total')).toContainText('14');
  await expect(page.getByTestId('contacts-count-withPhone')).toContainText('1');
  await page.getByTestId('contacts-view').locator('.ant-pagination-item-2').click();
  await expect(table.locator('.ant-table-row')).toHaveCount(4);
  await expect(table).toContainText('Smith, Anna');

  // Search finds the Cyrillic name as it is typed, no Enter needed; edit it and give the contact a language and an attribute.
  await page.getByTestId('contacts-search').fill('Олена');
  const olena = page.getByTestId('contact-row-olena@example.com');
  await expect(table.locator('.ant-table-row')).toHaveCount(1);
  await expect(olena).toContainText('Lviv');
  await olena.getByTestId('contact-edit').click();
  const form = page.getByTestId('contact-form');
  await expect(page.getByTestId('contact-email')).toHaveValue('olena@example.com');
  await expect(page.getByTestId('contact-attribute-name-0')).toHaveValue('city');
  await page.getByTestId('contact-name').fill('Олена Коваль');
  await page.getByTestId('contact-language').click();
  await page.keyboard.type('Ukrain');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Ukrainian' }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await page.getByTestId('contact-attribute-add').click();
  await page.getByTestId('contact-attribute-name-1').fill('tier');
  await page.getByTestId('contact-attribute-value-1').fill('gold');
  await page.getByTestId('contact-email').fill('olena@');
  await page.getByTestId('contact-save').click();
  await expect(form).toContainText('Enter a valid email address');
  await page.getByTestId('contact-email').fill('olena@example.com');
  await page.getByTestId('contact-save').click();
  await expect(form).toBeHidden();
  await expect(olena).toContainText('Олена Коваль');
  await expect(olena).toContainText('Ukrainian');
  await expect(olena).toContainText('gold');

  // Bulk unsubscribe two contacts of the first page.
  await page.getByTestId('contacts-search').fill('');
  await page.getByTestId('contacts-search').press('Enter');
  await expect(table.locator('.ant-table-row')).toHaveCount(10);
  const rows = table.locator('.ant-table-row');
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await expect(page.getByTestId('contacts-selection')).toContainText('2 contacts selected');
  await page.getByTestId('contacts-bulk-unsubscribe').click();
  await confirm(page, 'Unsubscribe');
  await expect(page.getByTestId('contacts-selection')).toHaveCount(0);
  await expect(page.getByTestId('contacts-count-unsubscribed')).toContainText('2');
  await expect(rows.nth(0).getByTestId('contact-status')).toHaveAttribute('data-status', 'unsubscribed');

  await pick(page, 'contacts-status-filter', 'Unsubscribed');
  await expect(table.locator('.ant-table-row')).toHaveCount(2);

  // Export the filtered contacts: the file holds the header and the two unsubscribed contacts.
  const exportDownload = page.waitForEvent('download');
  await page.getByTestId('contacts-export').click();
  const exported = await exportDownload;
  expect(exported.suggestedFilename()).toBe('Customers.csv');
  const exportText = readFileSync((await exported.path())!, 'utf8').replace(/^\uFEFF/, '');
  const exportLines = exportText.trim().split(/\r?\n/);
  expect(exportLines[0]).toBe('email,phone,name,language,time_zone,status,city,tier');
  expect(exportLines).toHaveLength(3);
  expect(exportLines.slice(1).every((line) => line.includes(',unsubscribed,'))).toBe(true);

  // The lists page shows the new counts.
  await page.goto('/mass-mail/contacts');
  await expect(row.getByTestId('contact-list-count-total')).toHaveText('14');
  await expect(row.getByTestId('contact-list-count-withEmail')).toHaveText('14');
  await expect(row.getByTestId('contact-list-count-withPhone')).toHaveText('1');
  await expect(row.getByTestId('contact-list-count-unsubscribed')).toHaveText('2');
});

test('contacts import: bad files are refused, a running import survives a reload and can be cancelled', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { token } = await signedIn(request, context, baseURL!);
  await page.goto('/mass-mail/contacts/import');
  await expect(page.getByTestId('contacts-import')).toHaveAttribute('data-step', '0');

  // A new list made from inside the wizard is chosen at once.
  await page.getByTestId('import-new-list').click();
  await page.getByTestId('contact-list-name').fill('Big list');
  await page.getByTestId('contact-list-save').click();
  await expect(page).toHaveURL(/\?list=\d+$/);
  await expect(page.getByTestId('import-list')).toContainText('Big list');
  const listId = new URL(page.url()).searchParams.get('list');
  const kept = await request.post(`/api/data/contact-lists/${listId}/contacts`, {
    headers: { 'X-Token': token },
    data: { email: 'kept@example.com', name: 'Kept' },
  });
  expect(kept.status()).toBe(200);

  const input = page.getByTestId('import-upload').locator('input[type=file]');
  const error = page.getByTestId('import-upload-error');

  await input.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
  await expect(error).toContainText('Wrong file type or format.');
  await input.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(error).toContainText('The file is empty.');
  await input.setInputFiles({
    name: 'garbage.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) % 256)),
  });
  await expect(error).toContainText('Wrong file type or format.');

  // A header naming no usable field: the preview shows, the mapping says what is missing.
  // Nothing tells its first row from data, so it is read as data until the user says it is a header.
  await input.setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('colour,size\nred,10\nblue,12\n') });
  const notes = page.getByTestId('import-preview-table');
  await expect(notes.locator('.ant-table-row')).toHaveCount(3);
  await page.getByTestId('import-header').click();
  await expect(notes.locator('.ant-table-row')).toHaveCount(2);
  await expect(notes).toContainText('colour');
  await expect(page.getByTestId('import-mapping-problem')).toContainText('Choose the column with e-mails');
  await expect(page.getByTestId('import-start')).toBeDisabled();
  await page.getByTestId('import-another-file').click();
  await expect(page.getByTestId('contacts-import')).toHaveAttribute('data-step', '0');

  // Large enough to be still reading when it is cancelled at the importer's full speed (over 100,000 rows/s), with
  // one row of the wrong width; written to a file, since a buffer handed to the browser is limited to 50 MB.
  const lines = ['email,name'];
  for (let index = 0; index < 2_000_000; index++) lines.push(`person${index}@example.com,Person ${index}`);
  lines.splice(3, 0, 'short-row');
  const bigFile = test.info().outputPath('big.csv');
  writeFileSync(bigFile, `${lines.join('\n')}\n`);
  await input.setInputFiles(bigFile);
  await expect(page.getByTestId('import-preview-mismatch')).toHaveCount(1);
  await page.getByTestId('import-mode-replace').check();
  await expect(page.getByTestId('import-replace-warning')).toContainText('Replacing deletes the 1 contact now in “Big list”');
  await page.getByTestId('import-start').click();
  await confirm(page, 'Replace');

  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  await page.reload();
  await expect(progress).toBeVisible();
  await expect(page.getByTestId('import-rate')).toContainText('rows/s');
  await page.getByTestId('import-cancel').click();
  await confirm(page, 'Cancel import');
  const report = page.getByTestId('import-report');
  await expect(report).toHaveAttribute('data-status', 'cancelled', { timeout: 15_000 });
  await expect(report).toContainText('Import cancelled');
  await expect(page.getByTestId('import-restart')).toBeVisible();

  // Cancelled, the replace left the list as it was.
  await page.getByTestId('import-report-view').click();
  await expect(page.getByTestId('contacts-table').locator('.ant-table-row')).toHaveCount(1);
  await expect(page.getByTestId('contact-row-kept@example.com')).toContainText('Kept');
});

test('on a phone a contact list with its filters fits the screen, with no sideways scrolling', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!);
  const list = await request.post('/api/data/contact-lists', { headers: { 'X-Token': token }, data: { name: 'Phone list' } });
  const { id } = (await list.json()) as { id: number };
  await request.post(`/api/data/contact-lists/${id}/contacts`, {
    headers: { 'X-Token': token },
    data: { email: 'phone-reader@example.com', name: 'Phone reader' },
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.goto(`/mass-mail/contacts/view/${id}`);
  await expect(page.getByTestId('contacts-attribute-value')).toBeVisible();
  await expect.poll(overflow).toBeLessThanOrEqual(0);
});
