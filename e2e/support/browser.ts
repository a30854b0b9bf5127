/**
 * Browser helpers for e2e specs: one headless Debian Chromium per spec file, a fresh
 * context (cookies, local storage) and page per test, screenshots, axe checks and API
 * seeding. Usage:
 *
 *   const b = useBrowser('auth');           // at the top of a spec file
 *   it('…', async () => {
 *     const page = await b.page();          // desktop 1280×800 unless told otherwise
 *     await page.goto(b.url('/login'));
 *     await b.shot(page, 'login');          // e2e/screenshots/auth/login-{desktop,375}.png
 *     await b.axe(page);                    // fails on any WCAG A/AA violation
 *   });
 */
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';
import { WEB_URL } from './env';

const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 740 };

/**
 * Fails when the page is wider than its window: a phone user would have to scroll sideways
 * (an element that does not wrap or shrink, or one stretched past its row). Right after a
 * resize the page may still be settling (cards added in steps, images arriving), so it is
 * read until it fits, for up to two seconds; a page that still does not fit names the
 * elements that reach past the window's right edge.
 */
export async function expectNoSideScroll(page: Page, what = page.url()): Promise<void> {
  const read = () =>
    page.evaluate(() => {
      const inner = window.innerWidth;
      const scroll = document.documentElement.scrollWidth;
      const past: string[] = [];
      if (scroll > inner)
        for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
          const { right, width } = el.getBoundingClientRect();
          if (right > inner + 0.5 && getComputedStyle(el).position !== 'fixed')
            past.push(
              `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}` +
                `.${String(el.className).split(' ').slice(0, 2).join('.')} ` +
                `(${Math.round(width)}px wide, right edge ${Math.round(right)}px)`,
            );
        }
      return { scroll, inner, past: past.slice(0, 8) };
    });
  let seen = await read();
  for (let waited = 0; seen.scroll > seen.inner && waited < 2000; waited += 250) {
    await page.waitForTimeout(250);
    seen = await read();
  }
  expect(
    seen.scroll,
    `${what} is ${seen.scroll}px wide in a ${seen.inner}px window; past its edge: ` +
      seen.past.join('; '),
  ).toBeLessThanOrEqual(seen.inner);
}

export interface BrowserKit {
  /** A new page in a fresh context (no token, no storage). */
  page: (opts?: { viewport?: { width: number; height: number }; token?: string }) => Promise<Page>;
  url: (p: string) => string;
  /**
   * Screenshot at desktop width and at 375px: screenshots/<spec>/<name>-{desktop,375}.png
   * (`desktopOnly`: the operations console, made for desktops, only the first). At 375px the
   * page must not scroll sideways.
   */
  shot: (page: Page, name: string, opts?: { desktopOnly?: boolean }) => Promise<void>;
  /** axe-core WCAG 2 A/AA check of the current page; fails the test on violations. */
  axe: (page: Page, opts?: { exclude?: string[] }) => Promise<void>;
}

export function useBrowser(spec: string): BrowserKit {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
    });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    const errors = pageErrors.splice(0);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  return {
    async page(opts = {}) {
      const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP });
      contexts.push(context);
      if (opts.token) {
        await context.addInitScript((token) => {
          // Only before the app's first load; tests that log out must not get it back.
          if (!sessionStorage.getItem('e2e-token-set')) {
            localStorage.setItem('ss', token);
            sessionStorage.setItem('e2e-token-set', '1');
          }
        }, opts.token);
      }
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('pageerror', (err) => pageErrors.push(String(err)));
      return page;
    },
    url: (p) => `${WEB_URL}${p}`,
    async shot(page, name, opts = {}) {
      const dir = path.join(SCREENSHOTS, spec);
      fs.mkdirSync(dir, { recursive: true });
      const before = page.viewportSize() ?? DESKTOP;
      const sizes = [
        ['desktop', DESKTOP],
        ['375', PHONE],
      ] as const;
      for (const [label, size] of opts.desktopOnly ? sizes.slice(0, 1) : sizes) {
        await page.setViewportSize(size);
        // The page's media queries answer for the new width before it is judged.
        await page
          .waitForFunction(
            (w) => window.innerWidth === w && matchMedia(`(max-width: ${w}px)`).matches,
            size.width,
            { timeout: 3000 },
          )
          .catch(() => undefined);
        await page.waitForTimeout(150);
        await page.screenshot({ path: path.join(dir, `${name}-${label}.png`), fullPage: true });
        if (size === PHONE) await expectNoSideScroll(page, `${spec}/${name}`);
      }
      await page.setViewportSize(before);
    },
    async axe(page, opts = {}) {
      // Colours read in the middle of a CSS transition are neither the old nor the new ones: a
      // button that was just enabled fades from grey to its colour over 250 ms, and a fast
      // machine reached axe within them (a contrast failure that no user sees). So the
      // transitions and finite animations running now end first (at most 2 s; endless ones,
      // such as a spinner, are left alone).
      await page.evaluate(() =>
        Promise.race([
          Promise.all(
            document
              .getAnimations()
              .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
              .map((a) => a.finished.catch(() => undefined)),
          ),
          new Promise((resolve) => setTimeout(resolve, 2000)),
        ]),
      );
      let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
      for (const sel of opts.exclude ?? []) builder = builder.exclude(sel);
      const result = await builder.analyze();
      const summary = result.violations.map(
        (v) =>
          `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')})`,
      );
      expect(summary, `axe violations on ${page.url()}`).toEqual([]);
    },
  };
}
