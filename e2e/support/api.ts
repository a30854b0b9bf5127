/**
 * Seeding through the real API (GUIDE.md: browser tests log in and seed through the API,
 * not the UI). Every helper throws with the status when the API refuses.
 */
import { randomBytes } from 'node:crypto';
import { API_URL } from './env';

export const PASSWORD = 'Hunt3r!pass';

export interface Seeded {
  email: string;
  password: string;
  token: string;
  userId: number;
}

export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${API_URL}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data: data as T };
}

/** A unique e-mail address for one test. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`;
}

export async function login(email: string, password = PASSWORD): Promise<string> {
  const res = await api<{ token: string }>('POST', '/auth', { email, password });
  if (res.status !== 200) throw new Error(`POST /auth answered ${res.status}`);
  return res.data.token;
}

async function register(
  hunter: boolean,
  email = uniqueEmail(hunter ? 'creator' : 'member'),
): Promise<Seeded> {
  const res = await api<{ userId: number; user?: { userId: number } }>('POST', '/user', {
    email,
    password: PASSWORD,
    hunter,
  });
  if (res.status !== 200) throw new Error(`POST /user answered ${res.status}`);
  const token = await login(email);
  const me = await api<{ user: { userId: number } }>('GET', '/user', undefined, token);
  return { email, password: PASSWORD, token, userId: me.data.user.userId };
}

/** A member (role 1) without a membership yet. */
export const registerMember = (email?: string) => register(false, email);
/** A creator (role 2) without a handle yet. */
export const registerCreator = (email?: string) => register(true, email);

/** Sets the creator's handle (needs the accounts feature's PUT /user/handle). */
export async function setHandle(token: string, handle: string): Promise<number> {
  return (await api('PUT', '/user/handle', { handle }, token)).status;
}
