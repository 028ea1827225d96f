import { expect, type Page, test } from '@playwright/test';
import { signedIn } from './fixtures';

/** Every Content-Security-Policy violation and console error of the page and its frames, as text. */
function watchViolations(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** Collects securitypolicyviolation events in every document that may run a script (the sandboxed previews may not). */
async function listenForViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
}

// An e-mail as templates really are: inline styles, a <style> element, images from data: and from a server (here the
// open pixel, which any origin may load; the sandboxed frame has an origin of its own).
const EMAIL_HTML = `<style>.lead { color: #1890ff; font-family: Georgia, serif }</style>
<h1 style="margin:0;padding:12px;background:#f0f5ff">Spring news for {{ contact.name }}</h1>
<p class="lead">Fresh offers</p>
<img alt="dot" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" width="1" height="1">
<img alt="pixel" src="/t/o/1/not-signed" width="1" height="1">
<table style="width:100%;border-collapse:collapse"><tr><td style="border:1px solid #ddd">Cell</td></tr></table>
<script>document.title = 'ran'</script>`;

test('security: the console runs under its Content-Security-Policy without a violation, template previews included', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  // Every screen loads its own chunks; a busy machine gets more time than the suite's default.
  test.setTimeout(180_000);
  const slow = { timeout: 30_000 };
  await listenForViolations(page);
  const problems = watchViolations(page);
  const { token } = await signedIn(request, context, baseURL!);
  const created = await request.post('/api/data/templates', {
    headers: { 'X-Token': token },
    data: { name: 'csp-check', channel: 'EMAIL', subject: 'Hello {{ contact.name }}', html: EMAIL_HTML },
  });
  expect(created.status()).toBe(200);

  const index = await page.goto('/dashboard');
  const headers = index!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  await expect(page.getByTestId('dashboard')).toBeVisible(slow);

  // The template list's preview drawer and the editor's live preview: both srcdoc frames under the console's policy.
  await page.goto('/templates/list');
  await page.getByTestId('template-row-csp-check').getByTestId('template-preview').click(slow);
  const drawer = page.locator('.ant-drawer');
  const drawerFrame = drawer.frameLocator('[data-testid="template-preview-frame"]');
  await expect(drawerFrame.locator('h1')).toContainText('Spring news for', slow);
  await expect(drawerFrame.locator('h1')).toHaveCSS('background-color', 'rgb(240, 245, 255)');
  await expect(drawerFrame.locator('p.lead')).toHaveCSS('color', 'rgb(24, 144, 255)');
  await expect(drawerFrame.locator('img[alt="pixel"]')).toHaveJSProperty('complete', true);
  await expect
    .poll(() => drawerFrame.locator('img[alt="pixel"]').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(page).not.toHaveTitle('ran');

  await page.goto('/templates/edit/csp-check');
  const editorFrame = page.frameLocator('[data-testid="template-preview-frame"]');
  await expect(editorFrame.locator('h1')).toHaveCSS('background-color', 'rgb(240, 245, 255)', slow);

  for (const path of ['/mass-mail/campaigns', '/mass-mail/contacts', '/configs/providers', '/statistics/email/reports']) {
    await page.goto(path);
    await expect(page.locator('[data-testid="view"]').first(), path).toBeVisible(slow);
  }
  // The public API documentation page, rendered from the OpenAPI document.
  await page.goto('/doc');
  await page.waitForLoadState('networkidle');
  // The e-mail's own <script> is stopped by the preview's sandbox, which Chromium says on the console; nothing else is.
  const sandboxed = /^console: Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/;
  expect(problems.filter((problem) => sandboxed.test(problem)).length).toBeGreaterThan(0);
  expect(problems.filter((problem) => !sandboxed.test(problem))).toEqual([]);
  problems.length = 0;

  // The listeners do catch a violation: an inline script added to the page is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
  });
  await expect.poll(() => problems.some((problem) => problem.includes('CSP violation: script-src'))).toBe(true);
  expect(await page.evaluate(() => (window as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
});

test('security: the console cannot be framed by another page', async ({ page, baseURL }) => {
  const problems = watchViolations(page);
  await page.setContent(`<iframe id="herald" src="${baseURL}/login" width="600" height="400"></iframe>`);
  await expect
    .poll(() => problems.some((problem) => /frame-ancestors|X-Frame-Options|refused to (display|connect)/i.test(problem)))
    .toBe(true);
});
