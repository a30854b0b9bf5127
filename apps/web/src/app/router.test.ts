import { describe, expect, it } from 'vitest';
import { findDuplicatePaths } from './route-table';
import { appRoutes } from './router';

// SPEC.md §2 (with CONTRACT.md's bounty for {product}).
const SPEC_ROUTES = [
  '/',
  '/login',
  '/forgot',
  '/reset/:id',
  '/register/:role',
  '/join',
  '/signup/plan',
  '/signup/handle/user',
  '/signup/payment',
  '/enrollment/handle',
  '/enrollment/stagename',
  '/account',
  ...[
    'email',
    'password',
    'handle',
    'bio',
    'picture',
    'payment',
    'name',
    'address',
    'ssn',
    'identity',
    'bank',
    'stagename',
    'tokens',
  ].map((c) => `/account/${c}`),
  '/bounty/create',
  '/bounty/post/:id',
  '/bounty/:id',
  '/claim/:id',
  '/profile',
  '/profile/:handle',
  '/profile/post',
  '/profile/edit',
  '/hunters',
  '/creators',
  '/message',
  '*',
];

describe('route table', () => {
  it('mounts every route of SPEC.md §2', () => {
    const paths = appRoutes.map((r) => r.path);
    for (const p of SPEC_ROUTES) expect(paths).toContain(p);
  });

  it('has no path declared by two features', () => {
    expect(findDuplicatePaths(appRoutes)).toEqual([]);
  });

  it('finds duplicates, whatever the parameter names', () => {
    const page = () => Promise.resolve({ default: () => null });
    expect(
      findDuplicatePaths([
        { path: '/a/:x', layout: 'body', page },
        { path: '/a/:y', layout: 'main', page },
      ]),
    ).toEqual(['/a/:y']);
  });

  // Transforming every page module takes seconds on a busy 2-core machine: allow for it.
  it('every page module loads', async () => {
    for (const r of appRoutes) {
      const mod = await r.page();
      expect(typeof mod.default).toBe('function');
    }
  }, 60_000);
});
