/**
 * Issue 21 part 5: the JavaScript a first visit loads, gzipped (level 9 per file), on every
 * page a new visitor or member opens first.
 *
 * - initial: what the page's index.html names (the entry script and its modulepreloads),
 *   which every route downloads before anything shows: under 150 KB.
 * - loaded: every script the page loaded until the network was idle (its lazy page chunks
 *   included): under 200 KB (issue 3's budget for a first visit).
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { activeMember, creator } from '../support/session';

const b = useBrowser('budget');
const INITIAL_BUDGET_KB = 150;
const LOADED_BUDGET_KB = 200;

const gzCache = new Map<string, number>();
async function gzipped(url: string): Promise<number> {
  const known = gzCache.get(url);
  if (known !== undefined) return known;
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  const n = gzipSync(body, { level: 9 }).length;
  gzCache.set(url, n);
  return n;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The scripts the document served for `path` names: its entry and modulepreloads. */
async function initialScripts(path: string): Promise<string[]> {
  const url = b.url(path);
  const html = await (await fetch(url)).text();
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) urls.add(new URL(m[1]!, url).href);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    urls.add(new URL(m[1]!, url).href);
  return [...urls];
}

async function budget(page: Page, path: string, ready: () => Promise<unknown>) {
  const loaded = new Set<string>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') loaded.add(res.url());
  });
  await page.goto(b.url(path));
  await ready();
  await page.waitForLoadState('networkidle');
  expect(new URL(page.url()).pathname).toBe(path);
  const initial = await initialScripts(path);
  expect(initial.length).toBeGreaterThan(0);
  // What index.html names is what the browser loaded first.
  for (const u of initial) expect(loaded).toContain(u);
  let initialBytes = 0;
  for (const u of initial) initialBytes += await gzipped(u);
  let loadedBytes = 0;
  for (const u of loaded) loadedBytes += await gzipped(u);
  const out = { initialKb: kb(initialBytes), loadedKb: kb(loadedBytes), files: loaded.size };
  console.log(
    `gzipped JS for ${path}: initial ${out.initialKb} KB, loaded ${out.loadedKb} KB in ${out.files} files`,
  );
  expect(out.initialKb).toBeLessThan(INITIAL_BUDGET_KB);
  expect(out.loadedKb).toBeLessThan(LOADED_BUDGET_KB);
  return out;
}

const heading = (page: Page, name: string) => () =>
  page.getByRole('heading', { name, level: 1 }).first().waitFor();

describe('JavaScript budget, signed out', () => {
  it('/join', async () => {
    const page = await b.page();
    await budget(page, '/join', () => page.getByRole('heading', { level: 1 }).first().waitFor());
  });

  it('/login', async () => {
    const page = await b.page();
    await budget(page, '/login', heading(page, 'Sign In'));
  });

  it('/register/member', async () => {
    const page = await b.page();
    await budget(page, '/register/member', heading(page, 'Create Your Account'));
  });
});

describe.skipIf(!hasDatabase())('JavaScript budget, signed in as a member', () => {
  const member = () => activeMember({ silver: 50 });

  it('/', async () => {
    const m = await member();
    const page = await b.page({ token: m.token });
    await budget(page, '/', () => page.getByRole('navigation', { name: 'Main' }).waitFor());
  });

  it('a bounty page', async () => {
    const m = await member();
    const title = `Budget bounty ${Date.now().toString(36)}`;
    const res = await api<{ bountyId: number }>(
      'POST',
      '/bounty',
      { title, seconds: 24 * 3600, amount: 0 },
      m.token,
    );
    expect(res.status).toBe(200);
    const page = await b.page({ token: m.token });
    await budget(page, `/bounty/${res.data.bountyId}`, heading(page, title));
  });

  it('a hunter profile', async () => {
    const c = await creator();
    const m = await member();
    const page = await b.page({ token: m.token });
    await budget(page, `/profile/${c.handle}`, heading(page, c.handle!));
  });

  it('/account', async () => {
    const m = await member();
    const page = await b.page({ token: m.token });
    await budget(page, '/account', heading(page, 'Settings'));
  });

  it('/message', async () => {
    const m = await member();
    const page = await b.page({ token: m.token });
    await budget(page, '/message', heading(page, 'Messages'));
  });
});
