/** Web shell (issue 3): layouts, footer, bottom nav, search, guard, session, feedback. */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { useBrowser } from '../support/browser';
import { hasDatabase } from '../support/db';
import { API_URL } from '../support/env';
import { activeMember, creator, mockApi } from '../support/session';
import { registerCreator, registerMember } from '../support/api';

const b = useBrowser('shell');
const db = it.skipIf(!hasDatabase());

describe('body layout and footer', () => {
  it('shows the logo, Sign In and the whole footer to an anonymous visitor', async () => {
    const page = await b.page();
    await page.goto(b.url('/join'));
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'BountyHunt home' }).waitFor();
    const signIn = header.getByRole('link', { name: 'Sign In' });
    expect((await signIn.boundingBox())?.height).toBe(30);
    await signIn.click();
    await page.waitForURL('**/login');
    await page.goto(b.url('/join'));

    const footer = page.getByRole('contentinfo');
    expect(
      await footer.getByRole('link', { name: 'support@bountyhunt.app' }).getAttribute('href'),
    ).toBe('mailto:support@bountyhunt.app');
    for (const name of ['About', 'Join', 'Privacy', 'Contact', 'FAQ']) {
      const href = await footer.getByRole('link', { name, exact: true }).getAttribute('href');
      expect(href).toMatch(/^https:\/\/bountyhunt\.app\//);
    }
    for (const name of ['Facebook', 'Instagram', 'X', 'YouTube', 'LinkedIn']) {
      await footer.getByRole('link', { name, exact: true }).waitFor();
    }
    // The social icons have no real targets: clicking one stays on the page.
    await footer.getByRole('link', { name: 'Facebook' }).click();
    expect(page.url()).toBe(b.url('/join'));
    await footer.getByText('© 2023 BountyHunt. All rights reserved.').waitFor();
    await b.axe(page);
    await b.shot(page, 'body-layout');
  });

  it('the logo goes to / (which sends an anonymous visitor to /join)', async () => {
    const page = await b.page();
    await page.goto(b.url('/login'));
    await page.getByRole('link', { name: 'BountyHunt home' }).click();
    await page.waitForURL('**/join');
  });
});

describe('main layout', () => {
  db('greets the member by handle and shows silver and votes', async () => {
    const m = await activeMember({ silver: 1234, votes: 17 });
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/message'));
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    const greeting = page.getByRole('link', { name: `Hi, ${m.handle}` });
    await greeting.waitFor();
    expect((await greeting.boundingBox())?.height).toBe(30);
    expect(await page.getByTestId('status-silver').first().textContent()).toBe('1,234 silver');
    expect(await page.getByTestId('status-votes').first().textContent()).toBe('17 votes');
    await b.axe(page);
    await b.shot(page, 'main-layout');
    // At 375px the status bar moves under the toolbar and stays visible.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.getByTestId('status-silver').last().isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await greeting.click();
    await page.waitForURL('**/account');
  });

  db('the search dialog goes to /?q= on Enter and closes', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/message'));
    await page.getByRole('button', { name: 'Search' }).click();
    const input = page.getByLabel('Search bounties');
    await input.waitFor();
    await b.axe(page);
    await b.shot(page, 'search-dialog');
    await input.fill('golden retriever');
    await input.press('Enter');
    await page.waitForURL(
      (u) => u.pathname === '/' && u.searchParams.get('q') === 'golden retriever',
    );
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  db('bottom nav goes to Home, Post, Hunters, Messages and Profile', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/message'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    const targets: [string, string][] = [
      ['Hunters', '/creators'],
      ['Home', '/'],
      ['Post', '/bounty/create'],
      ['Profile', '/profile'],
      ['Messages', '/message'],
    ];
    for (const [name, path] of targets) {
      await nav.getByRole('link', { name }).click();
      await page.waitForURL((u) => u.pathname === path);
    }
    await page.goto(b.url('/creators'));
    await page.getByRole('heading', { name: 'Hunters' }).waitFor();
  });

  db('bottom nav labels show above 768px and hide at 768px and below', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token, viewport: { width: 769, height: 800 } });
    await page.goto(b.url('/message'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    const label = nav.getByText('Messages', { exact: true });
    await label.waitFor();
    expect(await label.isVisible()).toBe(true);
    await page.setViewportSize({ width: 768, height: 800 });
    await label.waitFor({ state: 'hidden' });
    // The icons stay, and each item keeps its accessible name.
    expect(await nav.getByRole('link').count()).toBe(5);
    expect(await nav.getByRole('link', { name: 'Messages' }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await label.isVisible()).toBe(false);
    // On a small phone all five share the width: none reaches past the screen's edge.
    await page.setViewportSize({ width: 320, height: 640 });
    const rights = await nav
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getBoundingClientRect().right));
    expect(rights).toHaveLength(5);
    for (const right of rights) expect(right).toBeLessThanOrEqual(320);
  });

  db('every navigation scrolls to the top', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token, viewport: { width: 375, height: 600 } });
    await page.goto(b.url('/message'));
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.evaluate(() => {
      const tall = document.createElement('div');
      tall.style.height = '3000px';
      document.body.appendChild(tall);
      window.scrollTo(0, 1500);
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Hunters' })
      .click();
    await page.waitForURL('**/creators');
    await page.waitForFunction(() => window.scrollY === 0);
  });
});

describe('role guard', () => {
  it('sends an anonymous visitor from guarded pages to /join', async () => {
    const page = await b.page();
    for (const path of [
      '/',
      '/message',
      '/account',
      '/profile',
      '/signup/plan',
      '/bounty/create',
    ]) {
      await page.goto(b.url(path));
      await page.waitForURL('**/join');
      await page.getByRole('link', { name: 'Get Started' }).waitFor();
    }
  });

  it('sends a member without a membership from the main layout to /join', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/message'));
    await page.waitForURL('**/join');
    await page.getByRole('link', { name: 'Finish Sign Up' }).waitFor();
  });

  db('sends a lapsed member to /join', async () => {
    const m = await activeMember({ days: -3 });
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/'));
    await page.waitForURL('**/join');
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
  });

  it('sends a creator without a handle to /join', async () => {
    const c = await registerCreator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/profile'));
    await page.waitForURL('**/join');
    await page.getByRole('link', { name: 'Finish Sign Up' }).waitFor();
  });

  db('keeps each role to its own pages', async () => {
    const c = await creator();
    const page = await b.page({ token: c.token });
    await page.goto(b.url('/hunters'));
    await page.getByRole('heading', { name: 'Hunters' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/hunters');
    await page.goto(b.url('/account/payment')); // members only
    await page.waitForURL('**/join');

    const m = await activeMember();
    const page2 = await b.page({ token: m.token });
    await page2.goto(b.url('/account/bio')); // creators only
    await page2.waitForURL('**/join');
    await page2.goto(b.url('/account/email')); // everyone
    await page2.getByRole('contentinfo').waitFor();
    await page2.waitForLoadState('networkidle');
    expect(new URL(page2.url()).pathname).toBe('/account/email');
  });

  it('shows a spinner while the session is unresolved', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await mockApi(page, 'GET', '/user', 500, null, 1500);
    await page.goto(b.url('/account'));
    await page.getByRole('progressbar', { name: 'Loading' }).waitFor();
    // The failed user fetch logs out: token gone, off to /join.
    await page.waitForURL('**/join');
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeNull();
  });
});

describe('session', () => {
  it('a bad stored token logs out', async () => {
    const page = await b.page({ token: 'not-a-real-token' });
    await page.goto(b.url('/join'));
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeNull();
  });

  db('the main layout shows a full-page loader while the user loads', async () => {
    const m = await activeMember();
    const page = await b.page({ token: m.token });
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(`${API_URL}/user`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(b.url('/message'));
    await page.getByRole('progressbar', { name: 'Loading BountyHunt' }).waitFor();
    await b.shot(page, 'loading');
    release();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
  });

  it('Sign Out deletes the server session, forgets the token and goes to /join', async () => {
    const m = await registerMember();
    const page = await b.page({ token: m.token });
    await page.goto(b.url('/join'));
    await page.getByRole('link', { name: 'Finish Sign Up' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('link', { name: 'Get Started' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/join');
    expect(await page.evaluate(() => localStorage.getItem('ss'))).toBeNull();
    expect((await api('GET', '/user', undefined, m.token)).status).toBe(401);
  });
});

describe('feedback', () => {
  it('the snackbar shows at the top centre and hides after 6 seconds', async () => {
    const page = await b.page();
    await mockApi(page, 'PUT', '/user/reset', 204);
    await page.goto(b.url('/reset/some-code'));
    await page.getByLabel('New Password').fill('Str0ng!pass');
    await page.getByRole('button', { name: 'Change Password' }).click();
    const bar = page.getByTestId('snackbar');
    await bar.waitFor();
    const box = (await bar.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThan(4);
    expect(box.y).toBeLessThan(40);
    const shownAt = Date.now();
    await bar.waitFor({ state: 'hidden', timeout: 9000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(5000);
    expect(shownFor).toBeLessThan(7500);
  });
});

describe('first load', () => {
  it('shows the splash until the app has rendered, then the page', async () => {
    const page = await b.page();
    // The app's scripts never arrive: what a visitor sees meanwhile.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(b.url('/join'));
    const splash = page.getByRole('progressbar', { name: 'Loading BountyHunt' });
    await splash.waitFor();
    expect((await splash.textContent())?.trim()).toBe('BountyHunt');
    await b.shot(page, 'splash');

    const app = await b.page();
    await app.goto(b.url('/join'));
    await app.getByRole('link', { name: 'Get Started' }).waitFor();
    expect(await app.locator('.bh-splash').count()).toBe(0);
  });

  db(
    'a signed-in member’s first requests and page chunk leave before the app script has run, once each',
    async () => {
      const m = await activeMember();
      const page = await b.page({ token: m.token });
      const asked: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(API_URL) || req.method() === 'OPTIONS') return;
        const path = new URL(req.url()).pathname;
        // The early script also preloads the first tiles' thumbnails (the LCP image) when the
        // feed has images: those are media files, not calls.
        if (path.startsWith('/media/')) return;
        const what = `${req.method()} ${path}`;
        // Later feed pages (a cursor: the feed scrolled or was short) are other requests.
        const body = req.postData();
        asked.push(body && JSON.parse(body).cursor ? `${what} (next page)` : what);
      });
      // Hold the app's entry script back: the early requests must not wait for it.
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/assets/index-*.js', async (route) => {
        await held;
        await route.continue();
      });
      const chunks: string[] = [];
      page.on('request', (req) => {
        const file = new URL(req.url()).pathname;
        if (file.startsWith('/assets/') && !file.includes('/index-')) chunks.push(file);
      });
      await page.goto(b.url('/'), { waitUntil: 'commit' });
      await expect.poll(() => asked.slice().sort()).toEqual(['GET /user', 'POST /bounty/search']);
      // The home page's own chunk (named by the build into the early script) is on its way too.
      await expect.poll(() => chunks.some((f) => /\/home-page-[\w-]+\.js$/.test(f))).toBe(true);
      release();
      await page.getByTestId('greeting').waitFor();
      await page.waitForLoadState('networkidle');
      // The app took those answers instead of asking for the first page again.
      expect(asked.filter((a) => a === 'GET /user')).toHaveLength(1);
      expect(asked.filter((a) => a === 'POST /bounty/search')).toHaveLength(1);
    },
  );
});
