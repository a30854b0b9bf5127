/**
 * Admins for API tests, made the way operations make them (the CLI's service call) and signed
 * in through the API: `newAdmin` (no second factor yet), `enrolledAdmin` (TOTP set up; this
 * session has passed it, so it reaches every /admin endpoint).
 */
import { URI, type TOTP } from 'otpauth';
import { expect } from 'vitest';
import { PASSWORD, signUp, uniqueEmail, type TestApp } from './helper';

export type Auth = { authorization: string };

export async function signIn(t: TestApp, email: string): Promise<Auth> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth',
    payload: { email, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return { authorization: `Bearer ${res.json().token}` };
}

export async function newAdmin(t: TestApp) {
  const email = uniqueEmail('admin');
  const s = await signUp(t.app, { email });
  await t.root.services.admin.grantAdmin(email);
  return { ...s, email };
}

export async function enrol(t: TestApp, headers: Auth) {
  const res = await t.app.inject({ method: 'POST', url: '/admin/totp/enrol', headers });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { otpauthUrl: string; qr: string; recoveryCodes: string[] };
  const totp = URI.parse(body.otpauthUrl) as TOTP;
  return { ...body, totp, secret: totp.secret.base32 };
}

/** A code for a time step not used before (the clock moves on by one step). */
export function nextCode(t: TestApp, totp: TOTP): string {
  t.clock.advance(30_000);
  return totp.generate({ timestamp: t.clock.now().getTime() });
}

/** An admin whose session has passed the second factor: `auth` reaches every /admin call. */
export async function enrolledAdmin(t: TestApp) {
  const a = await newAdmin(t);
  const e = await enrol(t, a.auth);
  const res = await t.app.inject({
    method: 'POST',
    url: '/admin/totp/confirm',
    headers: a.auth,
    payload: { code: nextCode(t, e.totp) },
  });
  expect(res.statusCode).toBe(204);
  return { ...a, ...e };
}
