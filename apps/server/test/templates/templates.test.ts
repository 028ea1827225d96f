import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let owner: { token: string };
let stranger: { token: string };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
});
afterAll(async () => t.close());

type User = { token: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(user: User, method: Method, url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { 'x-token': user.token },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

let counter = 0;
const uniqueName = (prefix = 'tpl') => `${prefix}_${++counter}`;

const emailTemplate = (over: Record<string, unknown> = {}) => ({
  name: uniqueName(),
  channel: 'EMAIL',
  subject: 'Hello {{ contact.name }}',
  html: '<html><body><h1>Hi {{ contact.name }}</h1><p>From {{ vars.company | default: "us" }}</p></body></html>',
  ...over,
});

async function createTemplate(user: User, over: Record<string, unknown> = {}) {
  const res = await call(user, 'POST', '/api/data/templates', emailTemplate(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Encodes a form the way a browser does, through Node's FormData and Response. */
async function upload(user: User, fileName: string, content: string | Uint8Array, type = 'text/html') {
  const form = new FormData();
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), fileName);
  const encoded = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: '/api/data/templates/upload-html',
    headers: { 'x-token': user.token, 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}

describe('template variables', () => {
  it('creates, lists, changes, renames and deletes variables', async () => {
    const created = await call(owner, 'POST', '/api/data/template-variables', { name: 'company', value: 'Acme & Co' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ name: 'company', value: 'Acme & Co' });
    await call(owner, 'POST', '/api/data/template-variables', { name: 'temp', value: '1' });

    const list = await call(owner, 'GET', '/api/data/template-variables');
    expect(list.json().map((v: { name: string }) => v.name)).toEqual(['company', 'temp']);

    const renamed = await call(owner, 'PUT', '/api/data/template-variables/temp', { name: 'temp2', value: '2' });
    expect(renamed.json()).toMatchObject({ name: 'temp2', value: '2' });
    expect((await call(owner, 'DELETE', '/api/data/template-variables/temp2')).statusCode).toBe(200);
    expect((await call(owner, 'DELETE', '/api/data/template-variables/temp2')).statusCode).toBe(404);
  });

  it('refuses duplicate and malformed names', async () => {
    const duplicate = await call(owner, 'POST', '/api/data/template-variables', { name: 'company', value: 'x' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().fields).toEqual([
      { field: 'name', key: 'validation.nameExists', message: 'This name already exists.' },
    ]);
    const bad = await call(owner, 'POST', '/api/data/template-variables', { name: 'my var', value: 'x' });
    expect(bad.json().fields[0].key).toBe('templates.invalidVariableName');
  });

  it("never shows or changes another account's variables", async () => {
    expect((await call(stranger, 'GET', '/api/data/template-variables')).json()).toEqual([]);
    expect(
      (await call(stranger, 'PUT', '/api/data/template-variables/company', { name: 'company', value: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(stranger, 'DELETE', '/api/data/template-variables/company')).statusCode).toBe(404);
  });
});

describe('template categories', () => {
  it('creates, renames, counts, selects and deletes categories', async () => {
    const promo = (await call(owner, 'POST', '/api/data/template-categories', { name: ' Promo ' })).json();
    expect(promo).toMatchObject({ name: 'Promo', templateCount: 0 });
    const duplicate = await call(owner, 'POST', '/api/data/template-categories', { name: 'Promo' });
    expect(duplicate.json().fields[0].key).toBe('validation.nameExists');

    const renamed = await call(owner, 'PUT', `/api/data/template-categories/${promo.id}`, { name: 'Promotions' });
    expect(renamed.json().name).toBe('Promotions');
    const template = await createTemplate(owner, { categoryId: promo.id });
    const listed = (await call(owner, 'GET', '/api/data/template-categories')).json();
    expect(listed.find((c: { id: number }) => c.id === promo.id).templateCount).toBe(1);

    expect((await call(owner, 'GET', '/api/data/template-categories/current')).json()).toEqual({ categoryId: null });
    const set = await call(owner, 'POST', '/api/data/template-categories/current', { categoryId: promo.id });
    expect(set.json()).toEqual({ categoryId: promo.id });
    expect((await call(owner, 'GET', '/api/data/template-categories/current')).json()).toEqual({ categoryId: promo.id });
    expect((await call(stranger, 'POST', '/api/data/template-categories/current', { categoryId: promo.id })).statusCode).toBe(
      404,
    );
    expect((await call(stranger, 'DELETE', `/api/data/template-categories/${promo.id}`)).statusCode).toBe(404);

    expect((await call(owner, 'DELETE', `/api/data/template-categories/${promo.id}`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', `/api/data/templates/${template.name}`)).json().categoryId).toBeNull();
    expect((await call(owner, 'GET', '/api/data/template-categories/current')).json()).toEqual({ categoryId: null });
  });

  it('refuses an empty name', async () => {
    const res = await call(owner, 'POST', '/api/data/template-categories', { name: '  ' });
    expect(res.json().fields[0]).toMatchObject({ field: 'name', key: 'validation.mandatory' });
  });
});

describe('templates', () => {
  it('creates a template, keeps the HTML exactly and generates the text part', async () => {
    const html =
      '<!doctype html>\n<html><body>\n  <h1 class="x" >Hi {{ contact.name }}</h1>\r\n<p>Price &euro;5 &amp; more<br/></p></body></html>  ';
    const created = await createTemplate(owner, { name: 'Welcome-1_(a)', html, builder: { blocks: [{ type: 'text' }] } });
    expect(created).toMatchObject({
      name: 'Welcome-1_(a)',
      channel: 'EMAIL',
      html,
      textGenerated: true,
      builder: { blocks: [{ type: 'text' }] },
      categoryId: null,
    });
    expect(created.text).toBe('HI {{ contact.name }}\n\nPrice €5 & more\n');

    const read = (await call(owner, 'GET', '/api/data/templates/Welcome-1_(a)')).json();
    expect(read.html).toBe(html);
    const row = await t.database.db.selectFrom('templates').select('html').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.html).toBe(html);
  });

  it('keeps a text part the user wrote', async () => {
    const created = await createTemplate(owner, { text: 'Plain {{ contact.name }}' });
    expect(created).toMatchObject({ text: 'Plain {{ contact.name }}', textGenerated: false });
  });

  it("refuses invalid names with the spec's message, and duplicates", async () => {
    const bad = await call(owner, 'POST', '/api/data/templates', emailTemplate({ name: 'Привет мир' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual([
      {
        field: 'name',
        key: 'validation.invalidTemplateName',
        message: 'Use Latin characters, digits, dashes, parentheses and underscores only',
      },
    ]);
    const first = await createTemplate(owner);
    const duplicate = await call(owner, 'POST', '/api/data/templates', emailTemplate({ name: first.name }));
    expect(duplicate.json().fields).toEqual([
      { field: 'name', key: 'validation.nameExists', message: 'This name already exists.' },
    ]);
  });

  it('refuses a Liquid syntax error with its line and column, and saves nothing', async () => {
    const name = uniqueName();
    const res = await call(
      owner,
      'POST',
      '/api/data/templates',
      emailTemplate({ name, html: '<p>\n  {% if contact.name %}Hi\n</p>' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0]).toMatchObject({ field: 'html', key: 'templates.syntaxError' });
    expect(res.json().message).toMatch(/^Template syntax error at line 2, column 3: tag \{% if contact.name %\} not closed/);
    expect((await call(owner, 'GET', `/api/data/templates/${name}`)).statusCode).toBe(404);

    const ru = await t.app.inject({
      method: 'POST',
      url: '/api/data/templates',
      headers: { 'x-token': owner.token, 'accept-language': 'ru' },
      payload: emailTemplate({ subject: 'Hi {{ contact.name' }),
    });
    expect(ru.json().message).toMatch(/^Синтаксическая ошибка шаблона в строке 1, столбце 4/);
  });

  it('refuses unknown variables with their positions', async () => {
    const res = await call(
      owner,
      'POST',
      '/api/data/templates',
      emailTemplate({ subject: '{{ contact.frist_name }}', html: '<p>{{ vars.company }}\n{{ vars.nope }}</p>' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: 'subject', key: 'templates.unknownVariable', message: 'Unknown variable contact.frist_name at line 1, column 4' },
      { field: 'html', key: 'templates.unknownVariable', message: 'Unknown variable vars.nope at line 2, column 4' },
    ]);
  });

  it('asks for the text part when it cannot be generated from the HTML', async () => {
    const html = '<style>{% if contact.name %}p{}</style><p>Hi</p>{% endif %}';
    const res = await call(owner, 'POST', '/api/data/templates', emailTemplate({ html }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([expect.objectContaining({ field: 'text', key: 'templates.textNotGenerated' })]);
    expect((await call(owner, 'POST', '/api/data/templates', emailTemplate({ html, text: 'Hi' }))).statusCode).toBe(200);
    const check = await call(owner, 'POST', '/api/data/templates/check', { channel: 'EMAIL', subject: 's', html });
    expect(check.json().problems).toEqual([expect.objectContaining({ field: 'text', line: null, column: null })]);
  });

  it('needs the parts of its channel and a category of the account', async () => {
    const missing = await call(owner, 'POST', '/api/data/templates', { name: uniqueName(), channel: 'EMAIL' });
    expect(missing.json().fields.map((f: { field: string }) => f.field)).toEqual(['subject', 'html']);
    const sms = await call(owner, 'POST', '/api/data/templates', { name: uniqueName(), channel: 'SMS', html: '{% broken' });
    expect(sms.json().fields).toEqual([expect.objectContaining({ field: 'smsText', key: 'validation.mandatory' })]);
    const strangerCategory = (await call(stranger, 'POST', '/api/data/template-categories', { name: 'Theirs' })).json();
    const foreign = await call(owner, 'POST', '/api/data/templates', emailTemplate({ categoryId: strangerCategory.id }));
    expect(foreign.json().fields[0]).toMatchObject({ field: 'categoryId', key: 'validation.notInList' });
  });

  it('refuses a 5 MB paste with a clear limit, and a larger body the same way', async () => {
    const paste = `<p>${'x'.repeat(5 * 1024 * 1024)}</p>`;
    const res = await call(owner, 'POST', '/api/data/templates', emailTemplate({ html: paste }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'templates.tooLarge', message: 'The template is too large (limit 5 MB).' });

    const huge = await call(owner, 'POST', '/api/data/templates', emailTemplate({ html: 'x'.repeat(7 * 1024 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ key: 'templates.tooLarge', message: 'The template is too large (limit 5 MB).' });

    const nearLimit = await call(
      owner,
      'POST',
      '/api/data/templates',
      emailTemplate({ html: `<p>${'y'.repeat(4 * 1024 * 1024)}</p>` }),
    );
    expect(nearLimit.statusCode).toBe(200);
    expect(nearLimit.json().html.length).toBe(4 * 1024 * 1024 + 7);
  });

  it('keeps the default body limit message on other routes', async () => {
    const res = await call(owner, 'POST', '/api/data/template-variables', { name: 'big', value: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().key).toBe('error.payloadTooLarge');
  });

  it('replaces, renames, copies and deletes by name', async () => {
    const original = await createTemplate(owner, { builder: [{ type: 'button' }] });
    const newName = uniqueName('renamed');
    const updated = await call(owner, 'PUT', `/api/data/templates/${original.name}`, {
      name: newName,
      channel: 'EMAIL',
      subject: 'New {{ contact.email }}',
      html: '<p>New</p>',
      builder: [{ type: 'button' }, { type: 'text' }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ id: original.id, name: newName, subject: 'New {{ contact.email }}', text: 'New' });
    expect(updated.json().builder).toHaveLength(2);
    expect((await call(owner, 'GET', `/api/data/templates/${original.name}`)).statusCode).toBe(404);

    const copyName = uniqueName('copy');
    const copy = await call(owner, 'POST', `/api/data/templates/${newName}/copy`, { newName: copyName });
    expect(copy.json()).toMatchObject({ name: copyName, subject: 'New {{ contact.email }}', html: '<p>New</p>' });
    expect(copy.json().id).not.toBe(original.id);
    const copyAgain = await call(owner, 'POST', `/api/data/templates/${newName}/copy`, { newName: copyName });
    expect(copyAgain.json().fields[0]).toMatchObject({ field: 'newName', key: 'validation.nameExists' });
    const badCopy = await call(owner, 'POST', `/api/data/templates/${newName}/copy`, { newName: 'a b' });
    expect(badCopy.json().fields[0]).toMatchObject({ field: 'newName', key: 'validation.invalidTemplateName' });

    const clash = await call(owner, 'PUT', `/api/data/templates/${newName}`, { ...emailTemplate(), name: copyName });
    expect(clash.json().fields[0].key).toBe('validation.nameExists');

    expect((await call(owner, 'DELETE', `/api/data/templates/${copyName}`)).statusCode).toBe(200);
    expect((await call(owner, 'DELETE', `/api/data/templates/${copyName}`)).statusCode).toBe(404);
  });

  it('lists by category, channel and search, a page at a time, without bodies', async () => {
    const category = (await call(owner, 'POST', '/api/data/template-categories', { name: 'Lists' })).json();
    for (let i = 0; i < 3; i++) await createTemplate(owner, { name: `list_item_${i}`, categoryId: category.id });
    await createTemplate(owner, { name: 'list_percent', subject: '100% off' });
    await call(owner, 'POST', '/api/data/templates', { name: 'list_sms', channel: 'SMS', smsText: 'Code {{ contact.name }}' });

    const page = (await call(owner, 'GET', `/api/data/templates?categoryId=${category.id}&size=2&page=2`)).json();
    expect(page.total).toBe(3);
    expect(page.items).toEqual([
      expect.objectContaining({
        name: 'list_item_2',
        categoryId: category.id,
        categoryName: 'Lists',
        channel: 'EMAIL',
        hasBuilder: false,
      }),
    ]);
    expect(page.items[0].html).toBeUndefined();

    const sms = (await call(owner, 'GET', '/api/data/templates?channel=SMS')).json();
    expect(sms.items.map((i: { name: string }) => i.name)).toEqual(['list_sms']);
    const search = (await call(owner, 'GET', `/api/data/templates?search=${encodeURIComponent('100%')}`)).json();
    expect(search.items.map((i: { name: string }) => i.name)).toEqual(['list_percent']);
    const underscore = (await call(owner, 'GET', '/api/data/templates?search=LIST_ITEM')).json();
    expect(underscore.total).toBe(3);
    expect((await call(stranger, 'GET', '/api/data/templates?search=list')).json().total).toBe(0);
  });

  it('refuses NUL characters, which PostgreSQL cannot store or compare, on both databases', async () => {
    const res = await call(owner, 'POST', '/api/data/templates', emailTemplate({ html: '<p>a\u0000b</p>' }));
    expect(res.json().fields).toEqual([expect.objectContaining({ field: 'html', key: 'validation.invalidValue' })]);
    expect((await call(owner, 'GET', '/api/data/templates/a%00b')).statusCode).toBe(400);
    expect((await call(owner, 'GET', '/api/data/templates?search=%00')).statusCode).toBe(400);
    const variable = await call(owner, 'POST', '/api/data/template-variables', { name: 'nul', value: 'a\u0000' });
    expect(variable.json().fields[0]).toMatchObject({ field: 'value', key: 'validation.invalidValue' });
  });

  it("hides another account's templates", async () => {
    const mine = await createTemplate(owner);
    expect((await call(stranger, 'GET', `/api/data/templates/${mine.name}`)).statusCode).toBe(404);
    expect((await call(stranger, 'PUT', `/api/data/templates/${mine.name}`, emailTemplate({ name: mine.name }))).statusCode).toBe(
      404,
    );
    expect((await call(stranger, 'POST', `/api/data/templates/${mine.name}/copy`, { newName: 'x' })).statusCode).toBe(404);
    expect((await call(stranger, 'DELETE', `/api/data/templates/${mine.name}`)).statusCode).toBe(404);
    expect((await call(stranger, 'POST', '/api/data/templates/preview', { name: mine.name })).statusCode).toBe(404);
  });
});

describe('check', () => {
  it('answers every problem with its position, in the request language', async () => {
    const res = await call(owner, 'POST', '/api/data/templates/check', {
      channel: 'EMAIL',
      subject: '{{ oops }}',
      html: '<p>\n{% for x in %}</p>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().problems).toEqual([
      {
        field: 'subject',
        key: 'templates.unknownVariable',
        message: 'Unknown variable oops at line 1, column 4',
        line: 1,
        column: 4,
      },
      expect.objectContaining({ field: 'html', key: 'templates.syntaxError', line: 2, column: 1 }),
    ]);
    const clean = await call(owner, 'POST', '/api/data/templates/check', { channel: 'SMS', smsText: 'Hi {{ contact.name }}' });
    expect(clean.json()).toEqual({ problems: [] });
  });
});

describe('preview', () => {
  it('renders unsaved fields with sample data and the account variables', async () => {
    const res = await call(owner, 'POST', '/api/data/templates/preview', {
      channel: 'EMAIL',
      subject: 'Hi {{ contact.name }}',
      html: '<p>{{ contact.attributes.city }} {{ vars.company }} <script>{{ contact.name }}</script></p>',
      sample: { contact: { name: '<Ann>', attributes: { city: 'Porto' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      subject: 'Hi <Ann>',
      html: '<p>Porto Acme &amp; Co <script>&lt;Ann&gt;</script></p>',
      text: 'Porto Acme & Co',
      smsText: '',
      segments: null,
    });
  });

  it('renders a stored template with the built-in sample when no data is given', async () => {
    const stored = await createTemplate(owner);
    const res = await call(owner, 'POST', '/api/data/templates/preview', { name: stored.name });
    expect(res.json()).toMatchObject({ subject: 'Hello Alex Sample', text: 'HI Alex Sample\n\nFrom Acme & Co' });
  });

  it('counts SMS segments', async () => {
    const res = await call(owner, 'POST', '/api/data/templates/preview', {
      channel: 'SMS',
      smsText: '{% for i in (1..20) %}{{ contact.name }}{% endfor %}',
      sample: { contact: { name: 'Привет' } },
    });
    expect(res.json().segments).toEqual({ encoding: 'UCS-2', characters: 120, parts: 2, perPart: 67 });
  });

  it('answers syntax errors and broken limits as field errors', async () => {
    const syntax = await call(owner, 'POST', '/api/data/templates/preview', { channel: 'SMS', smsText: 'a {{ b' });
    expect(syntax.json().fields[0]).toMatchObject({ field: 'smsText', key: 'templates.syntaxError' });
    const limit = await call(owner, 'POST', '/api/data/templates/preview', {
      channel: 'SMS',
      smsText: '{% for i in (1..1000000000) %}x{% endfor %}',
    });
    expect(limit.statusCode).toBe(400);
    expect(limit.json().fields[0]).toMatchObject({ field: 'smsText', key: 'templates.renderFailed' });
    expect(limit.json().message).toMatch(/memory alloc limit exceeded/);
  });

  it('reads a chosen contact when the contacts table exists, and 404s otherwise', async () => {
    const res = await call(owner, 'POST', '/api/data/templates/preview', { channel: 'SMS', smsText: 'x', contactId: 999_999 });
    expect(res.statusCode).toBe(404);
  });
});

describe('HTML upload', () => {
  it('answers the file as it is', async () => {
    const html = '<html><body>Ünïcødé {{ contact.name }}</body></html>\n';
    const res = await upload(owner, 'letter.HTM', html);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ html, fileName: 'letter.HTM', size: Buffer.byteLength(html) });
  });

  it('refuses other files with upload.wrongFile', async () => {
    for (const [name, content] of [
      ['letter.txt', '<p>x</p>'],
      ['letter.html.exe', '<p>x</p>'],
      ['binary.html', new Uint8Array([0x3c, 0x00, 0xff, 0xfe])],
      ['latin1.html', new Uint8Array([0x3c, 0x70, 0x3e, 0xe9])],
    ] as const) {
      const res = await upload(owner, name, content);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().fields[0]).toMatchObject({
        field: 'file',
        key: 'upload.wrongFile',
        message: 'Wrong file type or format.',
      });
    }
  });

  it('refuses a file over 2 MB with the limit', async () => {
    const res = await upload(owner, 'big.html', `<p>${'x'.repeat(2 * 1024 * 1024)}</p>`);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'upload.tooLarge', message: 'The file is too large (limit 2 MB).' });
  });
});

describe('test send', () => {
  async function sandboxConfig(user: User, category: 'EMAIL' | 'SMS') {
    const configs = (await call(user, 'GET', `/api/data/provider-configurations/custom?category=${category}`)).json();
    return configs[0].id as number;
  }

  it('sends a rendered e-mail through a sandbox config into the sandbox inbox', async () => {
    const stored = await createTemplate(owner, { subject: 'Test for {{ contact.name }}' });
    const res = await call(owner, 'POST', `/api/data/templates/${stored.name}/test-send`, {
      providerConfigId: await sandboxConfig(owner, 'EMAIL'),
      to: 'qa@example.com',
      sample: { contact: { name: 'Bo' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accepted: true, error: null, providerMessageId: expect.stringMatching(/^sandbox-/) });
    const inbox = (await call(owner, 'GET', '/api/data/sandbox/messages?category=EMAIL')).json();
    expect(inbox.items[0]).toMatchObject({
      recipient: 'qa@example.com',
      subject: 'Test for Bo',
      body: expect.stringContaining('<h1>Hi Bo</h1><p>From Acme &amp; Co</p>'),
      providerMessageId: res.json().providerMessageId,
    });
  });

  it('sends an SMS to a typed phone number in international form', async () => {
    const created = await call(owner, 'POST', '/api/data/templates', {
      name: uniqueName('sms'),
      channel: 'SMS',
      smsText: 'Code for {{ contact.name }}: 1234',
    });
    const res = await call(owner, 'POST', `/api/data/templates/${created.json().name}/test-send`, {
      providerConfigId: await sandboxConfig(owner, 'SMS'),
      to: '1 (555) 010-0199',
    });
    expect(res.json()).toMatchObject({ accepted: true });
    const inbox = (await call(owner, 'GET', '/api/data/sandbox/messages?category=SMS')).json();
    expect(inbox.items[0]).toMatchObject({ recipient: '+15550100199', body: 'Code for Alex Sample: 1234' });
  });

  it("refuses a config of the wrong channel, a bad recipient and another account's config", async () => {
    const stored = await createTemplate(owner);
    const url = `/api/data/templates/${stored.name}/test-send`;
    const wrong = await call(owner, 'POST', url, { providerConfigId: await sandboxConfig(owner, 'SMS'), to: 'qa@example.com' });
    expect(wrong.json().fields[0]).toMatchObject({ field: 'providerConfigId', key: 'templates.channelMismatch' });
    const badTo = await call(owner, 'POST', url, { providerConfigId: await sandboxConfig(owner, 'EMAIL'), to: 'not-an-address' });
    expect(badTo.json().fields[0]).toMatchObject({ field: 'to', key: 'validation.invalidEmail' });
    const foreign = await call(owner, 'POST', url, {
      providerConfigId: await sandboxConfig(stranger, 'EMAIL'),
      to: 'qa@example.com',
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('describes the template routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of [
      '/api/data/templates',
      '/api/data/templates/{name}',
      '/api/data/templates/{name}/copy',
      '/api/data/templates/{name}/test-send',
      '/api/data/templates/upload-html',
      '/api/data/templates/preview',
      '/api/data/templates/check',
      '/api/data/template-categories',
      '/api/data/template-categories/current',
      '/api/data/template-categories/{id}',
      '/api/data/template-variables',
      '/api/data/template-variables/{name}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
