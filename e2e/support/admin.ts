/**
 * Admins for browser tests: a registered user given the admin bit (the role the `npm run
 * admin` command grants; no API grants it), and, through the API, an authenticator enrolled
 * for them with codes computed from the secret, as the admin's phone would.
 */
import { URI, type TOTP } from 'otpauth';
import { api, login, PASSWORD, registerMember, type Seeded } from './api';
import { sql } from './db';

export interface Admin extends Seeded {
  totp: TOTP | null;
  recoveryCodes: string[];
}

export async function newAdmin(): Promise<Admin> {
  const m = await registerMember();
  await sql('update users set role = role | 4 where id = $1', [m.userId]);
  return { ...m, token: await login(m.email, PASSWORD), totp: null, recoveryCodes: [] };
}

/**
 * A code the server has not accepted yet for this secret (each step's code works once): the
 * current step's, then the next step's (the server accepts one step of drift either way).
 */
const lastStep = new WeakMap<TOTP, number>();
export function freshCode(totp: TOTP): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(now, (lastStep.get(totp) ?? 0) + 1);
  if (step > now + 1) throw new Error('two codes in one 30-second step already; wait for the next');
  lastStep.set(totp, step);
  return totp.generate({ timestamp: step * 30_000 + 1000 });
}

/** An admin with an authenticator; `token`'s session has passed the second factor. */
export async function enrolledAdmin(): Promise<Admin & { totp: TOTP }> {
  const a = await newAdmin();
  const enrol = await api<{ otpauthUrl: string; recoveryCodes: string[] }>(
    'POST',
    '/admin/totp/enrol',
    undefined,
    a.token,
  );
  if (enrol.status !== 200) throw new Error(`enrol: ${enrol.status}`);
  const totp = URI.parse(enrol.data.otpauthUrl) as TOTP;
  const confirm = await api('POST', '/admin/totp/confirm', { code: freshCode(totp) }, a.token);
  if (confirm.status !== 204) throw new Error(`confirm: ${confirm.status}`);
  return { ...a, totp, recoveryCodes: enrol.data.recoveryCodes };
}
