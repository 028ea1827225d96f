import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FEEDBACK_MAX_FILE_BYTES } from '@herald/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeAdmin, signUp, type TestApp } from '../helpers/app.js';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

interface Attachment {
  field: string;
  name: string;
  type: string;
  bytes: Buffer;
}

const png = (field: string, name = `${field}.png`): Attachment => ({ field, name, type: 'image/png', bytes: PNG });

/** Encodes a form the way a browser does, through Node's FormData and Response. */
async function multipart(fields: Record<string, string>, files: Attachment[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

const validFields = { name: 'Ann', email: 'ann@example.com', desc: 'The report page is empty.' };

let t: TestApp;
let userToken: string;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  userToken = (await signUp(t.app)).token;
  const admin = await signUp(t.app);
  await makeAdmin(t.database, admin.email);
  adminToken = admin.token;
});
afterAll(async () => t.close());

async function send(fields: Record<string, string>, files: Attachment[] = [], token: string | null = userToken) {
  const { payload, headers } = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/feedback',
    payload,
    headers: token ? { ...headers, 'x-token': token } : headers,
  });
}

/** Everything a submission could leave behind: rows, stored files and temp files. */
async function storedState() {
  const count = async (table: 'feedback' | 'feedback_files') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);
  return {
    feedback: await count('feedback'),
    files: await count('feedback_files'),
    stored: entries(path.join(t.config.dataDir, 'feedback')),
    temp: entries(path.join(t.config.dataDir, 'tmp')),
  };
}

/** Runs a refused submission and checks it left nothing behind. */
async function expectRefusedWithoutTrace(submit: () => ReturnType<typeof send>) {
  const before = await storedState();
  const response = await submit();
  expect(await storedState()).toEqual({ ...before, temp: [] });
  return response;
}

describe('POST /api/feedback', () => {
  it('stores a valid form with two png files, lists it for an admin and serves its files', async () => {
    const response = await send({ ...validFields, name: '  Ann  ' }, [png('file0', 'first.png'), png('file1', 'second.PNG')]);
    expect(response.statusCode).toBe(200);
    const { id } = response.json();
    expect(id).toEqual(expect.any(Number));

    const storedDir = path.join(t.config.dataDir, 'feedback', String(id));
    expect(readdirSync(storedDir).sort()).toEqual(['1.png', '2.png']);
    expect((await storedState()).temp).toEqual([]);

    const list = await t.app.inject({ method: 'GET', url: '/api/data/feedback', headers: { 'x-token': adminToken } });
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((entry: { id: number }) => entry.id === id);
    expect(item).toMatchObject({
      name: 'Ann',
      email: 'ann@example.com',
      desc: 'The report page is empty.',
      createdAt: expect.any(Number),
      files: [
        { id: expect.any(Number), fileName: 'first.png', mimeType: 'image/png', sizeBytes: PNG.length },
        { id: expect.any(Number), fileName: 'second.PNG', mimeType: 'image/png', sizeBytes: PNG.length },
      ],
    });
    expect(list.json().total).toBeGreaterThanOrEqual(1);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/data/feedback/files/${item.files[0].id}`,
      headers: { 'x-token': adminToken },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(readFileSync(path.join(storedDir, '1.png')).equals(PNG)).toBe(true);
  });

  it('accepts a jpeg and a form without files', async () => {
    const jpeg = await send(validFields, [{ field: 'file0', name: 'photo.jpg', type: 'image/jpeg', bytes: JPEG }]);
    expect(jpeg.statusCode).toBe(200);
    const noFiles = await send(validFields);
    expect(noFiles.statusCode).toBe(200);
  });

  it('names each missing field with its message key', async () => {
    const response = await expectRefusedWithoutTrace(() => send({ name: '   ', email: '', desc: '' }, [png('file0')]));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'error.validation',
      fields: [
        { field: 'name', key: 'feedbackNameMissing', message: 'Enter your name' },
        { field: 'email', key: 'emailMissing' },
        { field: 'desc', key: 'feedbackDescMissing' },
      ],
    });
  });

  it('treats absent fields like empty ones', async () => {
    const response = await expectRefusedWithoutTrace(() => send({}));
    expect(response.json().fields.map((field: { key: string }) => field.key)).toEqual([
      'feedbackNameMissing',
      'emailMissing',
      'feedbackDescMissing',
    ]);
  });

  it('refuses a description over the text field limit instead of storing it cut', async () => {
    const response = await expectRefusedWithoutTrace(() => send({ ...validFields, desc: 'x'.repeat(70_000) }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual([{ field: 'desc', key: 'validation.invalidValue', message: 'Invalid value' }]);
  });

  it('refuses an invalid e-mail address', async () => {
    const response = await expectRefusedWithoutTrace(() => send({ ...validFields, email: 'not-an-address' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual([{ field: 'email', key: 'invalidEmail', message: 'Enter a valid email address' }]);
  });

  it.each([
    ['a .txt file', { field: 'file1', name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello') }],
    [
      'a text file named .png',
      { field: 'file1', name: 'shot.png', type: 'image/png', bytes: Buffer.from('hello, not an image') },
    ],
    ['a png sent as jpeg', { field: 'file1', name: 'shot.jpg', type: 'image/jpeg', bytes: PNG }],
    ['a png with a .gif name', { field: 'file1', name: 'shot.gif', type: 'image/png', bytes: PNG }],
  ])('refuses %s with upload.wrongFile and keeps none of the files', async (_case, attachment) => {
    const response = await expectRefusedWithoutTrace(() => send(validFields, [png('file0'), attachment]));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'error.validation',
      fields: [{ field: 'file1', key: 'upload.wrongFile', message: 'Wrong file type or format.' }],
    });
  });

  it('refuses a sixth file', async () => {
    const files = Array.from({ length: 6 }, (_, index) => png(`file${index}`));
    const response = await expectRefusedWithoutTrace(() => send(validFields, files));
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual([
      { field: 'files', key: 'upload.tooManyFiles', message: 'At most 5 files can be attached.' },
    ]);
  });

  it('refuses a file over the size limit with 413', async () => {
    const large = Buffer.concat([PNG, Buffer.alloc(FEEDBACK_MAX_FILE_BYTES)]);
    const response = await expectRefusedWithoutTrace(() =>
      send(validFields, [png('file0'), { field: 'file1', name: 'large.png', type: 'image/png', bytes: large }]),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ key: 'upload.tooLarge', fields: [{ field: 'file1', key: 'upload.tooLarge' }] });
  });

  it('refuses a body that is not multipart', async () => {
    const response = await expectRefusedWithoutTrace(() =>
      t.app.inject({ method: 'POST', url: '/api/feedback', payload: validFields, headers: { 'x-token': userToken } }),
    );
    expect(response.statusCode).toBe(415);
  });

  it('takes a visitor’s feedback from the public pages, which belongs to no account', async () => {
    const response = await send({ ...validFields, desc: 'Cannot log in' }, [png('file0')], null);
    expect(response.statusCode).toBe(200);
    const row = await t.database.db
      .selectFrom('feedback')
      .selectAll()
      .where('id', '=', response.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account_id: null, description: 'Cannot log in' });
    const list = await t.app.inject({ method: 'GET', url: '/api/data/feedback', headers: { 'x-token': adminToken } });
    expect(list.json().items.find((entry: { id: number }) => entry.id === row.id)).toMatchObject({
      desc: 'Cannot log in',
      files: [{ fileName: 'file0.png' }],
    });
  });
});

describe('admin feedback list', () => {
  it('is refused to a user without the admin role', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/data/feedback', headers: { 'x-token': userToken } });
    expect(list.statusCode).toBe(403);
    const file = await t.app.inject({ method: 'GET', url: '/api/data/feedback/files/1', headers: { 'x-token': userToken } });
    expect(file.statusCode).toBe(403);
  });

  it('is refused without a session', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/data/feedback' });
    expect(list.statusCode).toBe(401);
  });

  it('pages newest first', async () => {
    await send({ ...validFields, desc: 'older' });
    await send({ ...validFields, desc: 'newer' });
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/data/feedback?page=1&size=2',
      headers: { 'x-token': adminToken },
    });
    const { items, total } = page.json();
    expect(items.map((item: { desc: string }) => item.desc)).toEqual(['newer', 'older']);
    expect(total).toBeGreaterThan(2);
    const second = await t.app.inject({
      method: 'GET',
      url: '/api/data/feedback?page=2&size=2',
      headers: { 'x-token': adminToken },
    });
    expect(second.json().items).toHaveLength(2);
  });

  it('answers 404 for an unknown file', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/data/feedback/files/999999',
      headers: { 'x-token': adminToken },
    });
    expect(response.statusCode).toBe(404);
  });
});
