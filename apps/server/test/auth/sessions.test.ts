import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const loginPayload = (username: string, password: string) =>
  `username=${encodeURIComponent(username)}&password=${encodeURIComponent(password)}`;

describe('login', () => {
  it('logs in with a trimmed username and answers a token', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: loginPayload(`  ${user.email} `, user.password),
    });
    expect(res.statusCode).toBe(200);
    const check = await t.app.inject({ method: 'GET', url: '/api/data/users/session', headers: { 'x-token': res.json().token } });
    expect(check.json()).toEqual({ status: 'valid', roles: ['site'] });
  });

  it('answers 401 login.loginFail for a wrong password or unknown user', async () => {
    const user = await signUp(t.app);
    for (const payload of [loginPayload(user.email, 'Wrong1234'), loginPayload('nobody@example.com', 'Wrong1234')]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: form, payload });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        key: 'login.loginFail',
        message: 'Login failed. Please check your username and/or password.',
      });
    }
  });

  it('throttles after 10 failures per username and IP, even for the right password', async () => {
    const user = await signUp(t.app);
    const headers = { ...form, 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers,
        payload: loginPayload(user.email, 'Wrong1234'),
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers,
      payload: loginPayload(user.email, user.password),
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().key).toBe('login.tooManyAttempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const otherIp = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { ...form, 'x-forwarded-for': '198.51.100.7' },
      payload: loginPayload(user.email, user.password),
    });
    expect(otherIp.statusCode).toBe(200);
  });

  it('accepts JSON as well as a form', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('refuses protected calls without a token or with an unknown one', async () => {
    for (const headers of [{}, { 'x-token': 'not-a-real-token' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/data/users', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().key).toBe('error.unauthorized');
    }
  });

  it('ends the session on logout', async () => {
    const user = await signUp(t.app);
    const out = await t.app.inject({ method: 'GET', url: '/api/logout', headers: { 'x-token': user.token } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/data/users/session', headers: { 'x-token': user.token } });
    expect(after.statusCode).toBe(401);
  });

  it('expires a session after the idle period', async () => {
    const user = await signUp(t.app);
    const longAgo = Date.now() - 15 * 24 * 60 * 60 * 1000;
    const account = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('sessions').set({ last_seen_at: longAgo }).where('account_id', '=', account.id).execute();
    const res = await t.app.inject({ method: 'GET', url: '/api/data/users/session', headers: { 'x-token': user.token } });
    expect(res.statusCode).toBe(401);
  });

  it('switches profile by swapping the token', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/switch-profile',
      headers: { 'x-token': user.token },
      payload: { profile: 'api' },
    });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(token).not.toBe(user.token);
    const me = await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': token } });
    expect(me.json()).toMatchObject({ roles: ['api'], profile: 'api' });
    const old = await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': user.token } });
    expect(old.statusCode).toBe(401);
  });

  it('keeps roles out of reach of a non-admin', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/data/system-outbox', headers: { 'x-token': user.token } });
    expect(res.statusCode).toBe(403);
  });
});

describe('profile changes', () => {
  it('changes the password with the old one, and other sessions end', async () => {
    const user = await signUp(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: loginPayload(user.email, user.password),
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-password',
      headers: { 'x-token': user.token },
      payload: { oldPassword: 'Nope12345', newPassword: 'NewPass123', confirmPassword: 'NewPass123' },
    });
    expect(wrong.json().fields[0]).toMatchObject({ field: 'oldPassword', key: 'validation.wrongPassword' });
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-password',
      headers: { 'x-token': user.token },
      payload: { oldPassword: user.password, newPassword: 'NewPass123', confirmPassword: 'NewPass124' },
    });
    expect(mismatch.json().fields[0]).toMatchObject({ field: 'confirmPassword', message: 'Passwords do not match' });
    // The same password again changes nothing, and signs no other device out.
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-password',
      headers: { 'x-token': user.token },
      payload: { oldPassword: user.password, newPassword: user.password, confirmPassword: user.password },
    });
    expect(same.statusCode).toBe(400);
    expect(same.json().fields).toEqual([
      { field: 'newPassword', key: 'validation.samePassword', message: 'The new password must differ from the current one.' },
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': second.json().token } })).statusCode,
    ).toBe(200);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-password',
      headers: { 'x-token': user.token },
      payload: { oldPassword: user.password, newPassword: 'NewPass123', confirmPassword: 'NewPass123' },
    });
    expect(ok.statusCode).toBe(200);
    const other = await t.app.inject({ method: 'GET', url: '/api/data/users', headers: { 'x-token': second.json().token } });
    expect(other.statusCode).toBe(401);
    const relogin = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: loginPayload(user.email, 'NewPass123'),
    });
    expect(relogin.statusCode).toBe(200);
  });

  it('changes time zone, avatar (plain text) and language', async () => {
    const user = await signUp(t.app);
    const headers = { 'x-token': user.token };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/data/users/change-timezone', headers, payload: { id: '050', offset: 3 } }))
        .statusCode,
    ).toBe(200);
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/avatar',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'avatar-3.svg',
    });
    expect(avatar.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/data/users/change-language', headers, payload: { language: 'uk' } }))
        .statusCode,
    ).toBe(200);
    const me = (await t.app.inject({ method: 'GET', url: '/api/data/users', headers })).json();
    expect(me).toMatchObject({ timeZone: { id: '050' }, avatar: 'avatar-3.svg', language: 'uk' });
    const badZone = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-timezone',
      headers,
      payload: { id: '097' },
    });
    expect(badZone.json().fields[0]).toMatchObject({ field: 'id', key: 'validation.unknownTimeZone' });
    const badAvatar = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/avatar',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: '../../etc/passwd',
    });
    expect(badAvatar.statusCode).toBe(400);
  });
});

describe('password reset', () => {
  async function requestReset(email: string): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url: `/api/data/users/restore-password?email=${encodeURIComponent(email)}` });
    expect(res.json()).toEqual({ status: 'sent' });
    const mail = await t.database.db
      .selectFrom('system_outbox')
      .selectAll()
      .where('recipient', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /token=([^\s]+)/.exec(mail.text_body)?.[1];
    expect(mail.text_body).toContain('http://herald.test/reset?token=');
    return decodeURIComponent(token ?? '');
  }

  it('sends a single-use link that sets a new password', async () => {
    const user = await signUp(t.app);
    const token = await requestReset(user.email);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/reset-password',
      payload: { token, password: 'Fresh1234', confirmPassword: 'Fresh1234' },
    });
    expect(reset.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: form,
      payload: loginPayload(user.email, 'Fresh1234'),
    });
    expect(login.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/reset-password',
      payload: { token, password: 'Other1234' },
    });
    expect(again.json().fields[0]).toMatchObject({ field: 'token', key: 'reset.invalidToken' });
  });

  it('refuses an expired token', async () => {
    const user = await signUp(t.app);
    const token = await requestReset(user.email);
    await t.database.db
      .updateTable('password_resets')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/data/users/reset-password',
      payload: { token, password: 'Fresh1234' },
    });
    expect(res.statusCode).toBe(400);
  });

  it("writes the reset mail in the language asked for, or else in the account's saved one", async () => {
    const user = await signUp(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/data/users/change-language',
      headers: { 'x-token': user.token },
      payload: { language: 'ru' },
    });
    const subject = async (headers: Record<string, string>) => {
      await t.app.inject({
        method: 'GET',
        url: `/api/data/users/restore-password?email=${encodeURIComponent(user.email)}`,
        headers,
      });
      const mail = await t.database.db
        .selectFrom('system_outbox')
        .selectAll()
        .where('recipient', '=', user.email)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return mail.subject;
    };
    const saved = await subject({});
    expect(saved).toMatch(/[а-я]/);
    expect(await subject({ 'accept-language': 'de-DE' })).toBe(saved);
    expect(await subject({ 'accept-language': 'en' })).not.toBe(saved);
  });

  it('sends at most 5 reset mails an hour to one mailbox', async () => {
    const user = await signUp(t.app);
    for (let i = 0; i < 7; i++) {
      await t.app.inject({ method: 'GET', url: `/api/data/users/restore-password?email=${encodeURIComponent(user.email)}` });
    }
    const mails = await t.database.db.selectFrom('system_outbox').select('id').where('recipient', '=', user.email).execute();
    expect(mails).toHaveLength(5);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = await t.database.db.selectFrom('system_outbox').select('id').execute();
    const res = await t.app.inject({ method: 'GET', url: '/api/data/users/restore-password?email=ghost@example.com' });
    expect(res.json()).toEqual({ status: 'sent' });
    expect(await t.database.db.selectFrom('system_outbox').select('id').execute()).toHaveLength(before.length);
  });
});

describe('health', () => {
  it('reports up with the database reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ status: 'up' });
  });

  it('describes every route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/data/users', '/api/data/users/session', '/api/health']),
    );
  });
});
