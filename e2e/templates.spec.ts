import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signedIn } from './fixtures';

interface StoredTemplate {
  name: string;
  subject: string;
  html: string;
  builder: { blocks: { type: string }[] } | null;
}

async function getTemplate(request: APIRequestContext, token: string, name: string): Promise<StoredTemplate> {
  const res = await request.get(`/api/data/templates/${encodeURIComponent(name)}`, { headers: { 'X-Token': token } });
  expect(res.status()).toBe(200);
  return (await res.json()) as StoredTemplate;
}

/** The open screen: kept-alive tabs stay in the page, hidden, with the same test ids. */
function screen(page: Page, path: string) {
  return page.locator(`[data-testid="view"][data-path="${path}"]`);
}

test('templates: built from blocks, reopened in the builder, edited, previewed and sent to the sandbox', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!);

  // Build: a heading and a button from the palette, edited in the side panel, shown in the sandboxed preview.
  await page.goto('/templates/builder');
  await page.getByTestId('builder-palette-heading').click();
  await page.getByTestId('builder-prop-text').fill('Spring news');
  await page.getByTestId('builder-palette-button').click();
  await page.getByTestId('builder-prop-label').fill('Shop now');
  await page.getByTestId('builder-prop-href').fill('https://example.com/shop');
  await expect(page.getByTestId('builder-block-0')).toContainText('Spring news');
  await expect(page.getByTestId('builder-block-1')).toContainText('Shop now');
  await expect(page.getByTestId('builder-preview-frame')).toHaveAttribute('sandbox', '');
  const built = page.frameLocator('[data-testid="builder-preview-frame"]');
  await expect(built.locator('h1')).toHaveText('Spring news');
  await expect(built.getByRole('link', { name: 'Shop now' })).toHaveAttribute('href', 'https://example.com/shop');

  // The button moves above the heading and back, with the arrows.
  await page.getByTestId('builder-block-1').getByRole('button', { name: 'Move up', exact: true }).click();
  await expect(page.getByTestId('builder-block-0')).toHaveAttribute('data-type', 'button');
  await page.getByTestId('builder-block-0').getByRole('button', { name: 'Move down', exact: true }).click();
  await expect(page.getByTestId('builder-block-0')).toHaveAttribute('data-type', 'heading');

  await page.getByTestId('builder-save').click();
  await page.getByTestId('builder-name').fill('spring-news');
  await page.getByTestId('builder-subject').fill('Spring news');
  await page.getByTestId('builder-save-submit').click();
  await expect(page.getByTestId('builder-template-name')).toHaveText('spring-news');
  await expect(page).toHaveURL(/\/templates\/builder\?name=spring-news$/);
  const saved = await getTemplate(request, token, 'spring-news');
  expect(saved.builder?.blocks.map((block) => block.type)).toEqual(['heading', 'button']);
  expect(saved.html).toContain('role="presentation"');

  // Reopened from the list (a fresh start of the console), the builder shows the saved blocks.
  await page.goto('/templates/list');
  const row = page.getByTestId('template-row-spring-news');
  await expect(row.getByTestId('template-builder-badge')).toBeVisible();
  await row.getByTestId('template-builder').click();
  await expect(page).toHaveURL(/\/templates\/builder\?name=spring-news$/);
  await expect(page.getByTestId('builder-block-0')).toContainText('Spring news');
  await expect(page.getByTestId('builder-block-1')).toContainText('Shop now');
  await expect(page.getByTestId('builder-block-2')).toHaveCount(0);

  // Edited in the editor: a subject with a contact field; the blocks stay, as the HTML is unchanged.
  await page.getByTestId('builder-open-editor').click();
  await expect(page).toHaveURL(/\/templates\/edit\/spring-news$/);
  const editor = screen(page, '/templates/edit/spring-news');
  await expect(editor.getByTestId('template-builder-note')).toContainText('Made with the visual builder');
  await editor.getByTestId('template-subject').fill('Hello {{ contact.name }}');
  await expect(editor.getByTestId('preview-subject')).toHaveText('Hello Alex Sample');
  const preview = editor.frameLocator('[data-testid="template-preview-frame"]');
  await expect(preview.locator('h1')).toHaveText('Spring news');
  await editor.getByTestId('preview-mobile').click();
  await expect(editor.getByTestId('template-preview-frame')).toHaveCSS('width', '375px');
  await editor.getByTestId('preview-desktop').click();
  await expect(editor.getByTestId('template-preview-frame')).toHaveCSS('width', '800px');
  await editor.getByTestId('template-save').click();
  await expect(page.getByText('Template spring-news saved')).toBeVisible();
  const edited = await getTemplate(request, token, 'spring-news');
  expect(edited.subject).toBe('Hello {{ contact.name }}');
  expect(edited.builder?.blocks).toHaveLength(2);

  // Test send through the sandbox e-mail config: accepted, and the sandbox inbox holds it.
  await editor.getByTestId('test-send-open').click();
  await expect(page.getByTestId('test-send-config')).toContainText('Sandbox e-mail');
  await page.getByTestId('test-send-to').fill('reader@example.com');
  await page.getByTestId('test-send-submit').click();
  const result = page.getByTestId('test-send-result');
  await expect(result).toHaveAttribute('data-accepted', 'true');
  await expect(result).toContainText('Accepted by the provider');
  const inbox = await request.get('/api/data/sandbox/messages?category=EMAIL&page=1&size=10', {
    headers: { 'X-Token': token },
  });
  expect(inbox.status()).toBe(200);
  const { items } = (await inbox.json()) as { items: { recipient: string; subject: string; body: string }[] };
  const received = items.find((item) => item.recipient === 'reader@example.com');
  expect(received?.subject).toBe('Hello Alex Sample');
  expect(received?.body).toContain('Spring news');
  await page.keyboard.press('Escape');
  await expect(result).toBeHidden();

  // Previewed from the list: an inert frame (sandbox="" with srcdoc) that shows the e-mail's text.
  await page.goto('/templates/list');
  await page.getByTestId('template-row-spring-news').getByTestId('template-preview').click();
  const drawerFrame = page.locator('.ant-drawer').getByTestId('template-preview-frame');
  await expect(drawerFrame).toHaveAttribute('sandbox', '');
  await expect(drawerFrame).toHaveAttribute('srcdoc', /Spring news/);
  await expect(page.locator('.ant-drawer').frameLocator('[data-testid="template-preview-frame"]').locator('body')).toContainText(
    'Shop now',
  );
  await expect(page.locator('.ant-drawer').getByTestId('preview-subject')).toHaveText('Hello Alex Sample');
});

test('templates: copy with a checked name, a Liquid error refused with its position, upload and paste limits', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  const { token } = await signedIn(request, context, baseURL!);
  const created = await request.post('/api/data/templates', {
    headers: { 'X-Token': token },
    data: { name: 'welcome', channel: 'EMAIL', subject: 'Welcome', html: '<p>Hello there</p>' },
  });
  expect(created.status()).toBe(200);

  await page.goto('/templates/list');
  await page.getByTestId('template-row-welcome').getByTestId('template-copy').click();
  await expect(page).toHaveURL(/\/templates\/copy\/welcome$/);
  const name = page.getByTestId('template-name');
  await expect(name).toHaveValue('welcome_copy');

  // The spec's rule for names, checked as the user types.
  await name.fill('welcome copy!');
  const nameItem = page.locator('.ant-form-item').filter({ has: name });
  await expect(nameItem).toContainText('Use Latin characters, digits, dashes, parentheses and underscores only');
  await name.fill('welcome_(v2)');
  await expect(nameItem).not.toContainText('Use Latin characters');

  // A Liquid syntax error is marked live with its line:column, and saving is refused on the field.
  const html = page.getByTestId('template-html');
  await html.fill('<p>Hello there</p>\n<p>{{ contact.name </p>');
  const problem = page.getByTestId('template-problem').filter({ hasText: 'not closed' });
  await expect(problem.getByTestId('template-problem-position')).toHaveText('2:4');
  await expect(problem).toContainText('Template syntax error at line 2, column 4');
  await page.getByTestId('template-save').click();
  // Refused, the error is told once beside the field (its problem list), not repeated under the field as well.
  await expect(problem).toBeVisible();
  const htmlItem = page.locator('.ant-form-item').filter({ has: html });
  await expect(htmlItem.locator('.ant-form-item-explain-error')).toHaveCount(0);
  await expect(page).toHaveURL(/\/templates\/copy\/welcome$/);

  // A script in the body never runs: the preview frame is sandboxed without allow-scripts.
  await html.fill('<p>Hi {{ contact.name }}</p><script>document.title="ran"</script><img src="x" onerror="alert(1)">');
  await expect(page.getByTestId('template-problem')).toHaveCount(0);
  const frame = page.getByTestId('template-preview-frame');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('[data-testid="template-preview-frame"]').locator('p')).toHaveText('Hi Alex Sample');
  await expect(page).not.toHaveTitle('ran');

  // Upload: only .html/.htm files.
  const upload = page.getByTestId('template-upload').locator('input[type="file"]');
  await upload.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain') });
  await expect(page.getByText('Wrong file type or format.')).toBeVisible();
  await upload.setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<h2>Uploaded body</h2>') });
  await expect(html).toHaveValue('<h2>Uploaded body</h2>');

  // A 5 MB paste is refused before anything is sent, and the field keeps its text.
  await html.evaluate((element) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'x'.repeat(5 * 1024 * 1024));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(htmlItem).toContainText('The template is too large (limit 5 MB).');
  await expect(html).toHaveValue('<h2>Uploaded body</h2>');

  await page.getByTestId('template-save').click();
  await expect(page).toHaveURL(/\/templates\/list$/);
  await expect(page.getByTestId('template-row-welcome_(v2)')).toBeVisible();
  await expect(page.getByTestId('template-row-welcome')).toBeVisible();
  expect((await getTemplate(request, token, 'welcome_(v2)')).html).toBe('<h2>Uploaded body</h2>');

  // The same name twice is refused on the name field.
  await page.getByTestId('template-row-welcome').getByTestId('template-copy').click();
  await page.getByTestId('template-name').fill('welcome_(v2)');
  await page.getByTestId('template-save').click();
  await expect(page.locator('.ant-form-item').filter({ has: page.getByTestId('template-name') })).toContainText(
    'This name already exists.',
  );
});

test('templates: SMS segment counter, categories and the current category', async ({ page, request, context, baseURL }) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/templates/list');
  await expect(page.getByTestId('templates-empty')).toBeVisible();
  await page.getByTestId('templates-add').click();
  await expect(page).toHaveURL(/\/templates\/create$/);

  await page.getByTestId('template-name').fill('sms-code');
  await page.getByTestId('template-channel').getByText('SMS').click();
  const sms = page.getByTestId('template-sms');
  const counter = page.getByTestId('sms-counter');
  await sms.fill('a'.repeat(160));
  await expect(counter).toHaveAttribute('data-parts', '1');
  await sms.fill('a'.repeat(161));
  await expect(counter).toHaveAttribute('data-parts', '2');
  await expect(counter).toHaveAttribute('data-encoding', 'GSM-7');
  await expect(counter).toContainText('161 characters');
  await expect(counter).toContainText('2 parts');
  await expect(counter).toContainText('153 per part');
  await sms.fill('я'.repeat(70));
  await expect(counter).toHaveAttribute('data-parts', '1');
  await sms.fill('я'.repeat(71));
  await expect(counter).toHaveAttribute('data-encoding', 'UCS-2');
  await expect(counter).toHaveAttribute('data-parts', '2');
  await expect(counter).toContainText('67 per part');
  // Extension characters count twice: 81 euro signs are 162 septets.
  await sms.fill('€'.repeat(80));
  await expect(counter).toHaveAttribute('data-parts', '1');
  await sms.fill('€'.repeat(81));
  await expect(counter).toHaveAttribute('data-characters', '162');
  await expect(counter).toHaveAttribute('data-parts', '2');

  // The preview counts the parts of the filled-in text the send will use.
  await sms.fill(`Hi {{ contact.name }}, ${'b'.repeat(150)}`);
  await expect(page.getByTestId('preview-sms')).toContainText('Hi Alex Sample,');
  await expect(page.getByTestId('preview-sms-parts')).toHaveAttribute('data-parts', '2');
  // The unsubscribe link is offered beside the variables; a preview has nobody to unsubscribe, so it goes nowhere.
  await page.getByTestId('insert-variable').click();
  await page.getByRole('menuitem').filter({ hasText: 'unsubscribe_url' }).click();
  await expect(sms).toHaveValue(/\{\{ unsubscribe_url \}\}/);
  await expect(page.getByTestId('preview-sms')).toContainText('#unsubscribe');
  await page.getByTestId('template-save').click();
  await expect(page).toHaveURL(/\/templates\/list$/);
  const row = page.getByTestId('template-row-sms-code');
  await expect(row).toContainText('SMS');

  // Categories: a new one becomes current, and the server remembers it across a reload.
  await page.getByTestId('category-add').click();
  await page.getByTestId('category-name').fill('Alerts');
  await page.getByTestId('category-save').click();
  await expect(page.getByTestId('category-Alerts')).toHaveAttribute('data-active', 'true');
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('category-Alerts')).toHaveAttribute('data-active', 'true');
  await page.getByTestId('templates-add').click();
  await page.getByTestId('template-name').fill('alert-mail');
  await expect(page.getByTestId('template-category')).toContainText('Alerts');
  await page.getByTestId('template-subject').fill('Alert');
  await page.getByTestId('template-html').fill('<p>Alert</p>');
  await page.getByTestId('template-save').click();
  await expect(page.getByTestId('template-row-alert-mail')).toContainText('Alerts');
  await expect(page.getByTestId('category-Alerts')).toContainText('1');

  await page.getByTestId('category-all').click();
  await expect(page.getByTestId('template-row-sms-code')).toBeVisible();
  await page.getByTestId('category-Alerts').getByTestId('category-menu').click();
  await page.getByTestId('category-rename').click();
  await page.getByTestId('category-name').fill('Warnings');
  await page.getByTestId('category-save').click();
  await expect(page.getByTestId('template-row-alert-mail')).toContainText('Warnings');
  await page.getByTestId('category-Warnings').getByTestId('category-menu').click();
  await page.getByTestId('category-delete').click();
  await page.getByTestId('category-delete-confirm').click();
  await expect(page.getByTestId('category-Warnings')).toHaveCount(0);
  await expect(page.getByTestId('template-row-alert-mail')).not.toContainText('Warnings');
});

test('template variables: add, refuse a bad name, edit and delete in place', async ({ page, request, context, baseURL }) => {
  const { token } = await signedIn(request, context, baseURL!);
  await page.goto('/templates/variables');
  await expect(page.getByTestId('template-variables-empty')).toBeVisible();

  await page.getByTestId('variables-add').click();
  await page.getByTestId('variable-name').fill('1company');
  await page.getByTestId('variable-value').fill('Acme');
  await page.getByTestId('variable-save').click();
  await expect(page.getByTestId('variable-row-new')).toContainText(
    'Use Latin letters, digits and underscores only, starting with a letter',
  );
  await page.getByTestId('variable-name').fill('company');
  await page.getByTestId('variable-save').click();
  const row = page.getByTestId('variable-row-company');
  await expect(row).toContainText('Acme');
  await expect(row).toContainText('{{ vars.company }}');

  // A second variable under the same name is refused by the server on the name field.
  await page.getByTestId('variables-add').click();
  await page.getByTestId('variable-name').fill('company');
  await page.getByTestId('variable-save').click();
  await expect(page.getByTestId('variable-row-new')).toContainText('This name already exists.');
  await page.getByTestId('variable-cancel').click();

  await row.getByTestId('variable-edit').click();
  await page.getByTestId('variable-value').fill('Acme Inc.');
  await page.getByTestId('variable-save').click();
  await expect(row).toContainText('Acme Inc.');
  const listed = await request.get('/api/data/template-variables', { headers: { 'X-Token': token } });
  expect(await listed.json()).toMatchObject([{ name: 'company', value: 'Acme Inc.' }]);

  await row.getByTestId('variable-delete').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('template-variables-empty')).toBeVisible();
});

test('templates: leaving a new template with unsaved input asks first, and staying keeps it', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await signedIn(request, context, baseURL!);
  await page.goto('/dashboard');
  await page.goto('/templates/create');
  await page.getByTestId('template-name').fill('half-written');
  await page.getByTestId('tab-/dashboard').click();
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toContainText('Leave without saving?');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/templates\/create$/);
  await expect(page.getByTestId('template-name')).toHaveValue('half-written');
  await page.getByTestId('tab-/dashboard').click();
  await page.getByTestId('unsaved-leave').click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
