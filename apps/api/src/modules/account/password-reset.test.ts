import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTH_MSG } from '@bountyhunt/shared/auth-texts';
import { passwordResets } from '../../db/schema';
import { createTestApp, PASSWORD, signUp, uniqueEmail, type TestApp } from '../../../test/helper';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-receiver';

const WEB = 'https://bountyhunt.example';
let t: TestApp;
let smtp: SmtpReceiver;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      PUBLIC_WEB_URL: WEB,
      MAIL_FROM: 'BountyHunt <no-reply@bountyhunt.example>',
      RL_REGISTER_IP: '1000/3600',
      RL_RESET_IP: '1000/3600',
    },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const requestReset = (email: string, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: `/email/password/${encodeURIComponent(email)}`,
    remoteAddress: ip,
  });
const reset = (resetCode: string, newPassword = 'Brand-new-pass3#') =>
  t.app.inject({ method: 'PUT', url: '/user/reset', payload: { resetCode, newPassword } });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/auth', payload: { email, password } });

/** Requests a reset for `email` and returns the code from the link in the mail that arrives. */
async function mailedCode(email: string): Promise<{ code: string; link: string }> {
  const seen = smtp.mails.length;
  const res = await requestReset(email);
  expect(res.statusCode).toBe(204);
  const mail = await smtp.next(seen);
  const link = /https:\/\/bountyhunt\.example\/reset\/([A-Za-z0-9_%-]+)/.exec(mail.text);
  expect(link).not.toBeNull();
  return { code: decodeURIComponent(link![1]!), link: link![0] };
}

describe('password reset over SMTP', () => {
  it('mails a link to {PUBLIC_WEB_URL}/reset/{code} with a text and an HTML part; the link works once', async () => {
    const u = await signUp(t.app);
    const seen = smtp.mails.length;
    const res = await requestReset(u.email.toUpperCase());
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const mail = await smtp.next(seen);
    expect(mail.to).toEqual([u.email]);
    expect(mail.from).toBe('no-reply@bountyhunt.example');
    expect(mail.subject).toBe('Reset your BountyHunt password');
    expect(mail.parts.map((p) => p.contentType).sort()).toEqual(['text/html', 'text/plain']);
    const code = /\/reset\/([A-Za-z0-9_-]{43})\b/.exec(mail.text)![1]!;
    expect(mail.text).toContain(`${WEB}/reset/${code}`);
    expect(mail.html).toContain(`href="${WEB}/reset/${code}"`);
    expect(mail.html).toContain('#d83e86');
    expect(mail.html).toContain('Change Your Password');

    // Stored only as a hash.
    const rows = await t.app.root.ctx.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, u.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);

    const first = await reset(code);
    expect(first.statusCode).toBe(204);
    expect((await login(u.email, 'Brand-new-pass3#')).statusCode).toBe(200);
    expect((await login(u.email, PASSWORD)).statusCode).toBe(400);

    const second = await reset(code, 'Another-pass4$');
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(AUTH_MSG.resetCodeInvalid);
    expect((await login(u.email, 'Another-pass4$')).statusCode).toBe(400);
  });

  it('ends every session of the user and every other outstanding code', async () => {
    const u = await signUp(t.app);
    const older = await mailedCode(u.email);
    const newer = await mailedCode(u.email);
    expect(older.code).not.toBe(newer.code);
    expect((await reset(newer.code)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/user', headers: u.auth })).statusCode).toBe(
      401,
    );
    expect((await reset(older.code, 'Other-pass5%')).statusCode).toBe(400);
  });

  it('expires after one hour', async () => {
    const u = await signUp(t.app);
    const { code } = await mailedCode(u.email);
    t.clock.advance(3600 * 1000 + 1);
    const res = await reset(code);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUTH_MSG.resetCodeInvalid);
    expect((await login(u.email, PASSWORD)).statusCode).toBe(200);
  });

  it('one code used by two racing requests: one 204, one 400', async () => {
    const u = await signUp(t.app);
    const { code } = await mailedCode(u.email);
    const results = await Promise.all([reset(code, 'Racer-one1!'), reset(code, 'Racer-two2!')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  });

  it('answers 404 with the SPEC.md message for an unknown e-mail and sends nothing', async () => {
    const seen = smtp.mails.length;
    const res = await requestReset(uniqueEmail('nobody'));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(AUTH_MSG.resetNotFound);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(seen);
  });

  it('answers 400 for a malformed e-mail, a garbage code or a weak new password', async () => {
    const bad = await requestReset('not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(AUTH_MSG.emailInvalidLong);
    expect((await reset('garbage')).statusCode).toBe(400);
    const u = await signUp(t.app);
    const { code } = await mailedCode(u.email);
    const weak = await reset(code, 'weak');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(AUTH_MSG.passwordCriteria);
    // The weak attempt did not use the code up.
    expect((await reset(code)).statusCode).toBe(204);
  });

  it('limits requests per e-mail (5 an hour) with 429 and Retry-After', async () => {
    const u = await signUp(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await requestReset(u.email, `10.1.0.${i}`)).statusCode);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
    const limited = await requestReset(u.email, '10.1.0.99');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(3600 * 1000 + 1);
    expect((await requestReset(u.email, '10.1.0.100')).statusCode).toBe(204);
  });

  it('no reset code, link or password reaches the log', async () => {
    const u = await signUp(t.app);
    const { code } = await mailedCode(u.email);
    await reset(code, 'Logged-not4!');
    const log = t.logs.join('');
    expect(log).not.toContain(code);
    expect(log).not.toContain('Logged-not4!');
    expect(log).toContain('/email/password/[REDACTED]');
    expect(log).not.toContain(encodeURIComponent(u.email));
  });
});

describe('reset request limit per IP', () => {
  it('answers 429 past the per-IP limit, whatever the e-mail', async () => {
    const app = await createTestApp({
      env: { RL_RESET_IP: '3/3600', RL_REGISTER_IP: '1000/3600' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await app.app.inject({
          method: 'POST',
          url: `/email/password/${encodeURIComponent(uniqueEmail('ip'))}`,
          remoteAddress: '10.9.9.9',
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await app.close();
    }
  });
});
