import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { FeedCache, type FeedPage } from './feed-cache';

describe('FeedCache', () => {
  const page = (json: string): FeedPage => ({ json, nextCursor: null });

  it('builds a key once per TTL, and once for callers that arrive during the build', async () => {
    let now = 0;
    const cache = new FeedCache(1000, 10, () => now);
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((r) => setTimeout(r, 10));
      return page(`v${builds}`);
    };
    const first = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', build)));
    expect(builds).toBe(1);
    expect(new Set(first.map((p) => p.json))).toEqual(new Set(['v1']));
    now = 999;
    expect((await cache.get('k', build)).json).toBe('v1');
    now = 1000;
    expect((await cache.get('k', build)).json).toBe('v2');
    expect(builds).toBe(2);
  });

  it('builds anew after clear(), keeps no failed build, and holds at most maxEntries', async () => {
    const cache = new FeedCache(60_000, 3);
    let n = 0;
    const build = async () => page(`v${++n}`);
    expect((await cache.get('a', build)).json).toBe('v1');
    cache.clear();
    expect((await cache.get('a', build)).json).toBe('v2');
    await expect(cache.get('b', () => Promise.reject(new Error('db down')))).rejects.toThrow();
    expect((await cache.get('b', build)).json).toBe('v3');
    for (const k of ['c', 'd', 'e']) await cache.get(k, build);
    expect(cache.size).toBe(3);
  });

  it('is off with a TTL of 0: every call builds', async () => {
    const cache = new FeedCache(0);
    let n = 0;
    const build = async () => page(`v${++n}`);
    await cache.get('a', build);
    await cache.get('a', build);
    expect(n).toBe(2);
    expect(cache.size).toBe(0);
  });
});

describe('POST /bounty/search with the feed cache on', () => {
  let t: TestApp;
  let member: Session;
  let hunter: Session;
  beforeAll(async () => {
    t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600', FEED_CACHE_MS: '60000' } });
    member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
    hunter = await signUp(t.app, { hunter: true });
  });
  afterAll(() => t.close());

  const search = (body: object = { term: '' }) =>
    t.app.inject({ method: 'POST', url: '/bounty/search', payload: body });

  it('answers the same JSON as the uncached search, with the next-page cursor', async () => {
    for (let i = 0; i < 12; i++) await postBounty(t.app, member, { title: `Cached sunset ${i}` });
    const res = await search();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const direct = await t.root.services.bounties.search({ term: '' });
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(direct.items)));
    expect(res.headers[NEXT_CURSOR_HEADER]).toBe(direct.nextCursor);
    const next = await search({ term: '', cursor: res.headers[NEXT_CURSOR_HEADER] });
    expect(next.json()).toHaveLength(2);
  });

  it('shows a new bounty or claim at once, while vote counts may wait for the TTL', async () => {
    const before = (await search()).json() as { title: string }[];
    const { bountyId } = await postBounty(t.app, member, { title: 'Brand new bounty' });
    const after = (await search()).json() as {
      bountyId: number;
      rounds: { claims: unknown[] }[];
    }[];
    expect(after[0]!.bountyId).toBe(bountyId);
    expect(after.length).toBe(before.length);
    const claimId = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
    const withClaim = (await search()).json() as {
      rounds: { claims: { claimId: number; votes: number }[] }[];
    }[];
    expect(withClaim[0]!.rounds[0]!.claims.map((c) => c.claimId)).toEqual([claimId]);

    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const v = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter.auth,
      payload: { claimId, votes: 3 },
    });
    expect(v.statusCode).toBe(200);
    // Within the TTL the page is the cached one; the claim page is never cached.
    const cached = (await search()).json() as typeof withClaim;
    expect(cached[0]!.rounds[0]!.claims[0]!.votes).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: `/claim/${claimId}` })).json().votes).toBe(3);
  });

  it('validates the body before the cache: bad input is 400', async () => {
    expect((await search({ term: 5 })).statusCode).toBe(400);
    expect((await search({ term: '', cursor: 'garbage' })).statusCode).toBe(400);
  });
});
