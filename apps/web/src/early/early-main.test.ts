import { describe, expect, it } from 'vitest';
import { appRoutes } from '../app/router';
import { matchPath } from '../lib/early';
import { EARLY_ROUTES, earlyPlan, PUBLIC_ROUTES, publicPlan } from './early-main';

const chunks = {
  'features/bounties/pages/home-page.tsx': ['/assets/home-page-a.js', '/assets/claim-media-b.css'],
  'features/bounties/pages/claim-page.tsx': ['/assets/claim-page-c.js'],
};

describe('the early script', () => {
  it('asks for /user and the first page of each feed page, with its chunk files', () => {
    const home = earlyPlan('/', '?q=%20sunset%20', chunks);
    expect(home.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['GET', '/user', undefined],
      ['POST', '/bounty/search', { term: 'sunset', limit: 8 }],
    ]);
    expect(home.files).toEqual(chunks['features/bounties/pages/home-page.tsx']);

    const claim = earlyPlan('/claim/12', '', chunks);
    expect(claim.calls.map((c) => c.path)).toEqual(['/user', '/claim/12', '/claim/rank/12']);
    expect(claim.files).toEqual(['/assets/claim-page-c.js']);
    expect(earlyPlan('/bounty/7', '', chunks).calls.map((c) => c.path)).toEqual([
      '/user',
      '/bounty/7',
    ]);
    expect(earlyPlan('/profile/ann', '', chunks).calls.map((c) => c.path)).toEqual([
      '/user',
      '/hunter/handle/ann',
    ]);
  });

  it('asks for nothing more on pages it does not know, nor on /bounty/create or /profile/edit', () => {
    for (const path of ['/account', '/bounty/create', '/profile/edit', '/profile/post', '/login'])
      expect(earlyPlan(path, '', chunks).calls.map((c) => c.path)).toEqual(['/user']);
    expect(earlyPlan('/login', '', chunks).files).toEqual([]);
  });

  it('each early route is a route of the app, with the page module that route loads', () => {
    for (const early of EARLY_ROUTES) {
      const route = appRoutes.find((r) => r.path === early.path);
      expect(route, early.path).toBeDefined();
      // routes.tsx imports the page as `() => import('./…')`: the same file.
      const file = early.page
        .split('/')
        .pop()!
        .replace(/\.tsx$/, '');
      expect(route!.page.toString()).toContain(`${file}`);
    }
  });

  it('no early route takes a fixed path of the app for a parameter (its calls are empty)', () => {
    const fixed = appRoutes.map((r) => r.path).filter((p) => !p.includes(':'));
    for (const path of fixed) {
      const early = EARLY_ROUTES.find((r) => matchPath(r.path, path));
      if (!early || early.path === path) continue;
      expect(earlyPlan(path, '', chunks).calls, path).toHaveLength(1);
    }
  });
});

describe('the early script without a session', () => {
  const files = {
    'features/auth/pages/login-page.tsx': ['/assets/login-page-a.js', '/assets/TextField-b.js'],
    'features/auth/pages/register-page.tsx': ['/assets/register-page-c.js'],
  };

  it("preloads a public page's chunk files", () => {
    expect(publicPlan('/login', files)).toEqual(files['features/auth/pages/login-page.tsx']);
    expect(publicPlan('/register/creator', files)).toEqual(['/assets/register-page-c.js']);
  });

  it('preloads nothing on other pages', () => {
    for (const path of ['/', '/account', '/bounty/3', '/forgot'])
      expect(publicPlan(path, files)).toEqual([]);
  });

  it('each public route is a route of the app, with the page module that route loads', () => {
    for (const early of PUBLIC_ROUTES) {
      const route = appRoutes.find((r) => r.path === early.path);
      expect(route, early.path).toBeDefined();
      const file = early.page
        .split('/')
        .pop()!
        .replace(/\.tsx$/, '');
      expect(route!.page.toString()).toContain(file);
    }
  });
});
