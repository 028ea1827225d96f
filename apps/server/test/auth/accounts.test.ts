import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirstAdmin } from '../../src/auth/service.js';
import { verifyPassword } from '../../src/lib/crypto.js';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const signupBody = (over: Record<string, unknown> = {}) => ({
  email: `new-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'Passw0rdOk',
  timeZone: { id: '001', offset: -12 },
  role: 'site',
  ...over,
});

describe('sign-up', () => {
  it('creates an account, answers a working token and trims the e-mail', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      payload: signupBody({ email: '  Trim.Me@Example.com ' }),
    });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': token } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'trim.me@example.com',
      roles: ['site'],
      timeZone: { id: '001' },
      avatar: 'avatar-1.svg',
    });
  });

  it('stores the password hashed with scrypt and the token only as a hash', async () => {
    const body = signupBody();
    const res = await t.app.inject({ method: 'POST', url: '/api/data/users', payload: body });
    const account = await t.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', body.email)
      .executeTakeFirstOrThrow();
    expect(account.password_hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('Passw0rdOk', account.password_hash)).toBe(true);
    const sessions = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.map((s) => s.token_hash)).not.toContain(res.json().token);
  });

  it.each([
    ['short', 'Ab1', 'validation.passwordTooShort', 'Password should have at least 8 characters'],
    ['long', 'Abcdefgh1234567X', 'validation.passwordTooLong', 'Password cannot be longer than 15 characters'],
    ['no digit', 'Abcdefghij', 'validation.passwordWeak', null],
    ['no upper', 'abcdefgh12', 'validation.passwordWeak', null],
    ['empty', '', 'validation.passwordMissing', 'Enter password'],
  ])('refuses a %s password with the spec message', async (_name, password, key, message) => {
    const body = signupBody({ password });
    const res = await t.app.inject({ method: 'POST', url: '/api/data/users', payload: body });
    expect(res.statusCode).toBe(400);
    const field = res.json().fields.find((f: { field: string }) => f.field === 'password');
    expect(field.key).toBe(key);
    if (message) expect(field.message).toBe(message);
    const count = await t.database.db.selectFrom('accounts').select('id').where('email', '=', body.email).execute();
    expect(count).toHaveLength(0);
  });

  it('requires the username to be an e-mail address', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/data/users', payload: signupBody({ email: 'not-an-email' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toContainEqual({
      field: 'email',
      key: 'validation.invalidEmail',
      message: 'Enter a valid email address',
    });
  });

  it('refuses a duplicate e-mail with "This name already exists."', async () => {
    const body = signupBody();
    await t.app.inject({ method: 'POST', url: '/api/data/users', payload: body });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      payload: { ...body, email: body.email.toUpperCase() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0]).toMatchObject({ field: 'email', message: 'This name already exists.' });
  });

  it('refuses an unknown time zone, an unknown avatar and an unknown role', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      payload: signupBody({ timeZone: { id: '999' }, avatar: 'evil.png', role: 'root' }),
    });
    expect(res.statusCode).toBe(400);
    const keys = Object.fromEntries(res.json().fields.map((f: { field: string; key: string }) => [f.field, f.key]));
    expect(keys).toEqual({
      'timeZone.id': 'validation.unknownTimeZone',
      avatar: 'validation.unknownAvatar',
      role: 'validation.roleMissing',
    });
  });

  it('answers in the language the request asks for', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' },
      payload: signupBody({ password: '' }),
    });
    expect(res.json().message).toBe('Введите пароль');
  });

  it('names a missing mandatory field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      payload: { email: 'a@b.co', timeZone: { id: '001' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toContainEqual({
      field: 'password',
      key: 'validation.mandatory',
      message: 'Mandatory field missing.',
    });
  });
});

describe('bad bodies', () => {
  it('answers 400 with a message for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.invalidJson', message: 'The request body is not valid JSON.' });
  });

  it('answers 413 for an oversized body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().key).toBe('error.payloadTooLarge');
  });
});

describe('first start', () => {
  it('creates the admin once, with a generated password that satisfies the policy', async () => {
    const fresh = await createTestApp();
    try {
      const first = await createFirstAdmin(fresh.database.db);
      expect(first?.email).toBe('admin@herald.local');
      expect(first?.password).toMatch(/^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,15}$/);
      expect(await createFirstAdmin(fresh.database.db)).toBeNull();
      const login = await fresh.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: `username=${encodeURIComponent(first!.email)}&password=${encodeURIComponent(first!.password)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const me = await fresh.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': login.json().token } });
      expect(me.json().roles).toEqual(['site', 'admin']);
    } finally {
      await fresh.close();
    }
  });

  it('generates a different password each time', async () => {
    const a = await createTestApp();
    const b = await createTestApp();
    try {
      expect((await createFirstAdmin(a.database.db))?.password).not.toBe((await createFirstAdmin(b.database.db))?.password);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('signUp helper', () => {
  it('gives distinct accounts', async () => {
    const one = await signUp(t.app);
    const two = await signUp(t.app);
    expect(one.token).not.toBe(two.token);
  });
});
