/** Signed-in states for specs: seeded through the API, with SQL for what no API sets yet. */
import type { Page, Route } from 'playwright-core';
import { registerCreator, registerMember, type Seeded } from './api';
import { setActive, setHandleDb, setSilver } from './db';
import { API_URL } from './env';

let counter = 0;
/**
 * A unique handle (letters and digits, at most 15). Spec files run in workers of their own, each
 * counting from 1, and may share a database (the cluster suite): the random part keeps two
 * workers' first handles of one millisecond apart.
 */
export function uniqueHandle(prefix = 'h'): string {
  counter++;
  const random = Math.random().toString(36).slice(2, 6).padEnd(4, '0');
  return `${prefix}${Date.now().toString(36).slice(-5)}${random}${counter}`.slice(0, 15);
}

/** A member whose membership runs `days` more days (negative: expired). */
export async function activeMember(
  opts: { days?: number; handle?: string | null; silver?: number; votes?: number } = {},
): Promise<Seeded & { handle: string | null }> {
  const m = await registerMember();
  await setActive(m.userId, opts.days ?? 30);
  const handle = opts.handle === undefined ? uniqueHandle('m') : opts.handle;
  if (handle) await setHandleDb(m.userId, handle);
  if (opts.silver !== undefined || opts.votes !== undefined)
    await setSilver(m.userId, opts.silver ?? 0, opts.votes ?? 0);
  return { ...m, handle };
}

/** A creator, with a handle unless told `handle: null`. */
export async function creator(
  opts: { handle?: string | null } = {},
): Promise<Seeded & { handle: string | null }> {
  const c = await registerCreator();
  const handle = opts.handle === undefined ? uniqueHandle('c') : opts.handle;
  if (handle) await setHandleDb(c.userId, handle);
  return { ...c, handle };
}

/**
 * Answers one API call from the test instead of the server (for statuses the real API
 * cannot be made to give). Handles the CORS preflight too.
 */
export async function mockApi(
  page: Page,
  method: string,
  path: string | RegExp,
  status: number,
  body: unknown = status >= 400 ? { message: 'mocked', code: 'MOCKED' } : null,
  delayMs = 0,
): Promise<void> {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  };
  const matcher =
    typeof path === 'string'
      ? (url: URL) => url.href === `${API_URL}${path}`
      : (url: URL) => path.test(url.href.slice(API_URL.length));
  await page.route(matcher, async (route: Route) => {
    const req = route.request();
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    if (req.method() !== method) return route.fallback();
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await route.fulfill({
      status,
      headers: { ...cors, 'content-type': 'application/json' },
      body: body === null ? '' : JSON.stringify(body),
    });
  });
}
