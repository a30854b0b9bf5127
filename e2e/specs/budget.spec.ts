/** Issue 3 part 9: gzipped JavaScript a first visit loads, per page (aim: under 200 KB). */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { activeMember } from '../support/session';

const b = useBrowser('budget');
const BUDGET_KB = 200;

async function gzippedScripts(page: Page, path: string, ready: () => Promise<unknown>) {
  const urls = new Set<string>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') urls.add(res.url());
  });
  await page.goto(b.url(path));
  await ready();
  await page.waitForLoadState('networkidle');
  let total = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    total += gzipSync(body, { level: 9 }).length;
  }
  const kb = Math.round((total / 1024) * 10) / 10;
  console.log(`gzipped JS for ${path}: ${kb} KB in ${urls.size} files`);
  return kb;
}

describe('JavaScript budget', () => {
  it('/login', async () => {
    const page = await b.page();
    const kb = await gzippedScripts(page, '/login', () =>
      page.getByRole('heading', { name: 'Sign In' }).waitFor(),
    );
    expect(kb).toBeLessThan(BUDGET_KB);
  });

  it.skipIf(!hasDatabase())('/ for a signed-in member', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    const kb = await gzippedScripts(page, '/', () =>
      page.getByRole('navigation', { name: 'Main' }).waitFor(),
    );
    expect(kb).toBeLessThan(BUDGET_KB);
  });
});
