import { ADMIN_CODES } from '@bountyhunt/shared/admin';
import { ROLE } from '@bountyhunt/shared/roles';
import type { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as support from '../../../test/admin-support';
import type { Auth } from '../../../test/admin-support';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from '../../../test/helper';

describe('admin role and TOTP second factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const newAdmin = () => support.newAdmin(t);
  const enrolledAdmin = () => support.enrolledAdmin(t);
  const signIn = (email: string) => support.signIn(t, email);
  const enrol = (headers: Auth) => support.enrol(t, headers);
  const nextCode = (totp: TOTP) => support.nextCode(t, totp);
  const post = (url: string, headers: Auth | undefined, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  it('never grants the admin bit through POST /user', async () => {
    const email = uniqueEmail('sneaky');
    const res = await post('/user', undefined, { email, password: PASSWORD, role: 7 });
    expect(res.statusCode).toBe(200);
    expect(res.json().role & ROLE.admin).toBe(0);
    const hunter = await post('/user', undefined, {
      email: uniqueEmail('sneaky'),
      password: PASSWORD,
      hunter: true,
      role: 4,
    });
    expect(hunter.json().role).toBe(ROLE.hunter);
    const auth = await signIn(email);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: auth });
    expect(me.json().user.role & ROLE.admin).toBe(0);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: auth })).statusCode,
    ).toBe(403);
  });

  // The whole gate is admin-matrix.test.ts; here: access is decided before the body.
  it('answers 401/403 before looking at a missing code', async () => {
    const member = await signUp(t.app);
    const pending = await newAdmin();
    for (const url of ['/admin/totp/confirm', '/admin/totp/verify']) {
      expect((await post(url, undefined, {})).statusCode).toBe(401);
      expect((await post(url, member.auth, {})).statusCode).toBe(403);
      expect((await post(url, pending.auth, {})).statusCode).toBe(400);
    }
  });

  it('enrols, confirms with a current code and lets the session in', async () => {
    const a = await newAdmin();
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: a.auth })).json().code,
    ).toBe(ADMIN_CODES.secondFactorRequired);
    const e = await enrol(a.auth);
    expect(e.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(e.qr).toMatch(/^data:image\/png;base64,/);
    expect(e.recoveryCodes).toHaveLength(10);
    expect(new Set(e.recoveryCodes).size).toBe(10);
    // Still pending: the gate holds until a code confirms.
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: a.auth })).statusCode,
    ).toBe(403);
    expect((await post('/admin/totp/confirm', a.auth, { code: '123456' })).statusCode).toBe(400);
    const code = nextCode(e.totp);
    expect((await post('/admin/totp/confirm', a.auth, { code })).statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/admin/me', headers: a.auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ userId: a.userId, email: a.email, secondFactor: true });
    // Enrolment happens once.
    expect((await post('/admin/totp/enrol', a.auth)).statusCode).toBe(409);
  });

  it('asks a new session to verify; a code works once', async () => {
    const a = await enrolledAdmin();
    const other = await signIn(a.email);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: other })).json().code,
    ).toBe(ADMIN_CODES.secondFactorRequired);
    const code = nextCode(a.totp);
    expect((await post('/admin/totp/verify', other, { code })).statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: other })).statusCode,
    ).toBe(200);
    // The same code again, from a third session: replayed, refused.
    const third = await signIn(a.email);
    expect((await post('/admin/totp/verify', third, { code })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: third })).statusCode,
    ).toBe(403);
  });

  it('takes a recovery code exactly once', async () => {
    const a = await enrolledAdmin();
    const s1 = await signIn(a.email);
    const recoveryCode = a.recoveryCodes[3]!;
    expect(
      (await post('/admin/totp/verify', s1, { recoveryCode: recoveryCode.toUpperCase() }))
        .statusCode,
    ).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/admin/me', headers: s1 })).statusCode).toBe(
      200,
    );
    const s2 = await signIn(a.email);
    const again = await post('/admin/totp/verify', s2, { recoveryCode });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe(ADMIN_CODES.codeInvalid);
    expect(
      (await post('/admin/totp/verify', s2, { recoveryCode: a.recoveryCodes[4] })).statusCode,
    ).toBe(204);
  });

  it('rate-limits wrong codes like failed sign-ins', async () => {
    const a = await enrolledAdmin();
    const s = await signIn(a.email);
    const { limit } = t.config.rateLimits.loginEmail;
    for (let i = 0; i < limit; i++)
      expect((await post('/admin/totp/verify', s, { code: '000000' })).statusCode).toBe(400);
    const blocked = await post('/admin/totp/verify', s, { code: nextCode(a.totp) });
    expect(blocked.statusCode).toBe(429);
  });

  it('keeps the secret out of the logs and of every later answer', async () => {
    const a = await enrolledAdmin();
    const s = await signIn(a.email);
    const answers = [
      await post('/admin/totp/verify', s, { code: nextCode(a.totp) }),
      await t.app.inject({ method: 'GET', url: '/admin/me', headers: s }),
      await t.app.inject({ method: 'GET', url: '/user', headers: s }),
      await post('/admin/totp/enrol', s),
    ];
    for (const res of answers) {
      expect(res.body).not.toContain(a.secret);
      expect(res.body).not.toContain(a.otpauthUrl);
    }
    expect(t.logs.length).toBeGreaterThan(0);
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(a.secret);
    for (const code of a.recoveryCodes) expect(logs).not.toContain(code);
  });

  it('grants the admin bit from the CLI service; --create prints a set-password link', async () => {
    const member = await signUp(t.app);
    const r = await t.root.services.admin.grantAdmin(member.email);
    expect(r).toMatchObject({ userId: member.userId, created: false });
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: member.auth });
    expect(me.json().user.role).toBe(ROLE.member | ROLE.admin);
    await expect(t.root.services.admin.grantAdmin(uniqueEmail('nobody'))).rejects.toThrow(
      /No user/,
    );
    const email = uniqueEmail('ops');
    const made = await t.root.services.admin.grantAdmin(email, { create: true });
    expect(made.created).toBe(true);
    expect(made.setPasswordLink).toMatch(/\/reset\/[^/]+$/);
    const code = decodeURIComponent(made.setPasswordLink!.split('/').pop()!);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/user/reset',
      payload: { resetCode: code, newPassword: PASSWORD },
    });
    expect(set.statusCode).toBe(204);
    const auth = await signIn(email);
    const user = await t.app.inject({ method: 'GET', url: '/user', headers: auth });
    expect(user.json().user.role).toBe(ROLE.admin);
  });

  it('--reset-factor: the lost authenticator goes, sessions end, the next sign-in enrols anew', async () => {
    const a = await enrolledAdmin();
    const reset = await t.root.services.admin.resetFactor(a.email);
    expect(reset).toEqual({ userId: a.userId, email: a.email, hadFactor: true });
    // The old session (which had passed the factor) is over.
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/me', headers: a.auth })).statusCode,
    ).toBe(401);
    const auth = await signIn(a.email);
    const status = await t.app.inject({ method: 'GET', url: '/admin/totp/status', headers: auth });
    expect(status.json()).toEqual({ enrolled: false, secondFactor: false });
    // The old recovery codes are gone with it.
    expect(
      (await post('/admin/totp/verify', auth, { recoveryCode: a.recoveryCodes[0] })).statusCode,
    ).toBe(400);
    await enrol(auth);
    // Only admins: a member's e-mail is refused.
    const member = await signUp(t.app);
    await expect(t.root.services.admin.resetFactor(member.email)).rejects.toThrow(/No admin/);
    const audit = await t.root.services.audit.list({
      actorId: undefined,
      targetType: 'user',
      targetId: String(a.userId),
      action: 'admin.factor_reset',
    });
    expect(audit.items).toHaveLength(1);
  });
});
