import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { activeMember, postBounty, postClaim, voteOn, type Session } from '../../../test/factories';
import { toPrefixQuery } from './bounties.service';
import { BACKGROUND_BUILDS, FeedCache, type FeedPage } from './feed-cache';
import { searchBounties } from './search.repository';

describe('FeedCache', () => {
  const page = (json: string): FeedPage => ({ json, nextCursor: null });
  /** A stale-while-rebuilding cache (TTL 1 s) on the clock `now()`, spread by nothing. */
  const staleCache = <P = string>(now: () => number) =>
    new FeedCache<P>(1000, 10, now, true, () => 0);
  /** A page past its time but within another TTL (peekOrStale's stale answer), else undefined. */
  const staleOf = <P>(cache: FeedCache<P>, key: string) => {
    const stale: string[] = [];
    const got = cache.peekOrStale(key, stale);
    return stale.length > 0 ? got : undefined;
  };
  /** Background builds that wait to be released; each keeps `${key}${version}`. */
  const heldBuilds = (cache: FeedCache<string>, version: string) => {
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const build = (keys: string[]) =>
      new Promise<void>((resolve) => {
        started.push(...keys);
        releases.push(() => {
          for (const k of keys) cache.set(k, `${k}${version}`, cache.mark());
          resolve();
        });
      });
    const releaseAll = async () => {
      for (const r of releases.splice(0)) r();
      await new Promise((r) => setTimeout(r, 0));
    };
    return { build, started, releaseAll };
  };

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
    now = 799;
    expect((await cache.get('k', build)).json).toBe('v1');
    now = 1000;
    expect((await cache.get('k', build)).json).toBe('v2');
    expect(builds).toBe(2);
  });

  it('builds a page again behind the answer in the last fifth of its time (decision 0041)', async () => {
    let now = 0;
    const cache = new FeedCache(1000, 10, () => now);
    let n = 0;
    let release = () => {};
    const build = () =>
      new Promise<FeedPage>((resolve) => {
        const v = ++n;
        release = () => resolve(page(`v${v}`));
      });
    const first = cache.get('k', build);
    release();
    expect((await first).json).toBe('v1');
    now = 799;
    expect((await cache.get('k', build)).json).toBe('v1');
    expect(n).toBe(1);
    // From 800: answered as kept, and one build starts behind the answer.
    now = 800;
    expect((await cache.get('k', build)).json).toBe('v1');
    expect(n).toBe(2);
    now = 900;
    expect((await cache.get('k', build)).json).toBe('v1');
    expect(n).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    // v2 counts its time from its build's start (800): past v1's time, fresh until 1800.
    now = 1100;
    expect((await cache.get('k', build)).json).toBe('v2');
    expect(n).toBe(2);
    // A page dropped while it was built again is not kept: the next caller builds.
    now = 1600;
    expect((await cache.get('k', build)).json).toBe('v2');
    expect(n).toBe(3);
    cache.clear();
    release();
    await new Promise((r) => setTimeout(r, 0));
    const after = cache.get('k', build);
    expect(n).toBe(4);
    release();
    expect((await after).json).toBe('v4');
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

  it('when full, drops the page read longest ago (a page read again stays)', async () => {
    const cache = new FeedCache(60_000, 3);
    let n = 0;
    const build = async () => page(`v${++n}`);
    for (const k of ['a', 'b', 'c']) await cache.get(k, build);
    expect((await cache.get('a', build)).json).toBe('v1');
    await cache.get('d', build);
    expect((await cache.get('a', build)).json).toBe('v1');
    expect((await cache.get('b', build)).json).toBe('v5');
  });

  it('stale-while-rebuilding: a page past its time is answered while one build replaces it', async () => {
    let now = 0;
    const cache = staleCache<FeedPage>(() => now);
    let builds = 0;
    let release: () => void = () => undefined;
    const build = () => {
      builds += 1;
      const n = builds;
      return new Promise<FeedPage>((resolve) => {
        release = () => resolve(page(`v${n}`));
        if (n === 1) release();
      });
    };
    expect((await cache.get('k', build)).json).toBe('v1');
    now = 1500;
    // Past its time: the old page at once, for every reader, and one build.
    expect((await cache.get('k', build)).json).toBe('v1');
    expect((await cache.get('k', build)).json).toBe('v1');
    expect(builds).toBe(2);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect((await cache.get('k', build)).json).toBe('v2');
    // Past twice its time: built before answering.
    now = 1500 + 2000;
    const waiting = cache.get('k', build);
    release();
    expect((await waiting).json).toBe('v3');
  });

  it('stale-while-rebuilding: a page dropped while it was rebuilt is not kept', async () => {
    let now = 0;
    const cache = staleCache<FeedPage>(() => now);
    let n = 0;
    let release: () => void = () => undefined;
    const build = () =>
      new Promise<FeedPage>((resolve) => {
        const v = ++n;
        release = () => resolve(page(`v${v}`));
        if (v === 1) release();
      });
    await cache.get('k', build);
    now = 1500;
    expect((await cache.get('k', build)).json).toBe('v1');
    cache.delete('k'); // a change: what v2 was built from may be gone
    release();
    await new Promise((r) => setTimeout(r, 0));
    const next = cache.get('k', build);
    release();
    expect((await next).json).toBe('v3');
  });

  it('stale pages and rebuild: a page past its time, built again once, until twice its time', async () => {
    let now = 0;
    const cache = staleCache(() => now);
    cache.set('k', 'k1', cache.mark());
    expect(staleOf(cache, 'k')).toBeUndefined(); // fresh: peek answers it
    now = 1200;
    expect(cache.peek('k')).toBeUndefined();
    expect(await staleOf(cache, 'k')).toBe('k1');
    const { build, started, releaseAll } = heldBuilds(cache, '2');
    cache.rebuild(['k'], build);
    cache.rebuild(['k'], build); // already being built: not again
    expect(started).toEqual(['k']);
    expect(await staleOf(cache, 'k')).toBe('k1');
    await releaseAll();
    expect(await cache.peek('k')).toBe('k2');
    now = 1200 + 2000;
    expect(staleOf(cache, 'k')).toBeUndefined();
    expect(staleOf(new FeedCache<string>(1000, 10, () => now), 'k')).toBeUndefined();
  });

  it('peekOrStale answers a fresh page as peek does, or a stale one, and names the stale keys', async () => {
    let now = 0;
    const cache = staleCache(() => now);
    cache.set('a', 'a1', cache.mark());
    cache.set('b', 'b1', cache.mark());
    const stale: string[] = [];
    expect(await cache.peekOrStale('a', stale)).toBe('a1'); // fresh
    expect(cache.peekOrStale('x', stale)).toBeUndefined(); // never kept
    expect(stale).toEqual([]);
    // A fresh hit moves its page to the end, as peek does: 'b' is now the oldest.
    const small = new FeedCache<string>(
      1000,
      2,
      () => now,
      true,
      () => 1,
    );
    small.set('a', 'a1', small.mark());
    small.set('b', 'b1', small.mark());
    small.peekOrStale('a', stale);
    small.set('c', 'c1', small.mark());
    expect(small.peek('b')).toBeUndefined();
    expect(await small.peek('a')).toBe('a1');
    now = 1200; // past their time, within another TTL
    expect(await cache.peekOrStale('a', stale)).toBe('a1');
    expect(await cache.peekOrStale('b', stale)).toBe('b1');
    expect(stale).toEqual(['a', 'b']);
    now = 1200 + 2000; // past twice their time: gone
    expect(cache.peekOrStale('a', stale)).toBeUndefined();
    expect(stale).toEqual(['a', 'b']);
    // A cache that does not answer stale pages, and one dropped since: nothing.
    const plain = new FeedCache<string>(1000, 10, () => now);
    plain.set('k', 'k1', plain.mark());
    now += 1200;
    expect(plain.peekOrStale('k', stale)).toBeUndefined();
    cache.set('c', 'c1', cache.mark());
    cache.clear();
    expect(cache.peekOrStale('c', stale)).toBeUndefined();
    expect(stale).toEqual(['a', 'b']);
  });

  it('builds at most BACKGROUND_BUILDS stale pages at a time; the rest wait for their next read', async () => {
    let now = 0;
    const cache = staleCache(() => now);
    for (const k of ['a', 'b', 'c']) cache.set(k, `${k}1`, cache.mark());
    now = 1500;
    const { build, started, releaseAll } = heldBuilds(cache, '2');
    for (const k of ['a', 'b', 'c']) cache.rebuild([k], build);
    expect(BACKGROUND_BUILDS).toBe(2);
    expect(started).toEqual(['a', 'b']);
    expect(await staleOf(cache, 'c')).toBe('c1'); // answered as kept meanwhile
    await releaseAll();
    cache.rebuild(['c'], build); // its next read: a build is free
    expect(started).toEqual(['a', 'b', 'c']);
    // A failed build leaves the page as kept, to be tried again.
    now = 3000;
    cache.rebuild(['a'], () => Promise.reject(new Error('db down')));
    await new Promise((r) => setTimeout(r, 0));
    cache.rebuild(['a'], build);
    expect(started).toEqual(['a', 'b', 'c', 'a']);
  });

  it('spreads how long pages read together stay fresh over the last half of the TTL', async () => {
    let now = 0;
    let r = 0;
    const cache = new FeedCache<string>(
      1000,
      10,
      () => now,
      true,
      () => r,
    );
    r = 0;
    cache.set('full', 'x', cache.mark());
    r = 1;
    cache.set('half', 'x', cache.mark());
    now = 499;
    expect(cache.peek('half')).toBeDefined();
    now = 500;
    expect(cache.peek('half')).toBeUndefined();
    expect(cache.peek('full')).toBeDefined();
    now = 1000;
    expect(cache.peek('full')).toBeUndefined();
    // The feed's time limit is how long vote counts may lag: not spread.
    const feed = new FeedCache<string>(
      1000,
      10,
      () => now,
      false,
      () => 1,
    );
    feed.set('k', 'x', feed.mark());
    now = 1999;
    expect(feed.peek('k')).toBeDefined();
  });

  it('without stale-while-rebuilding (the feed), a page past its time is built first', async () => {
    let now = 0;
    const cache = new FeedCache(1000, 10, () => now);
    let n = 0;
    const build = async () => page(`v${++n}`);
    await cache.get('k', build);
    now = 1500;
    expect((await cache.get('k', build)).json).toBe('v2');
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
    t = await createTestApp({
      env: { RL_REGISTER_IP: '1000/3600', FEED_CACHE_MS: '60000', PAGE_CACHE_MS: '60000' },
    });
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
    // Built anew, every bounty from the database (nothing kept): the same answer.
    t.root.services.bounties.feedChanged();
    const fresh = await t.root.services.bounties.search({ term: '' });
    expect(direct.json.toString()).toBe(fresh.json.toString());
    expect(res.json()).toEqual(JSON.parse(fresh.json.toString()));
    expect(res.headers[NEXT_CURSOR_HEADER]).toBe(fresh.nextCursor);
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

describe('GET /bounty/{id} with the page cache on (decision 0016)', () => {
  let t: TestApp;
  let member: Session;
  let hunter: Session;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RL_REGISTER_IP: '1000/3600', FEED_CACHE_MS: '60000', PAGE_CACHE_MS: '60000' },
    });
    member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
    hunter = await signUp(t.app, { hunter: true });
  });
  afterAll(() => t.close());

  const page = (id: number, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/bounty/${id}`, headers });

  it('answers everyone the same JSON, and a vote or a new claim shows at once', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const anon = await page(bountyId);
    expect(anon.statusCode).toBe(200);
    expect((await page(bountyId, member.auth)).body).toBe(anon.body);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const vote = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter.auth,
      payload: { claimId, votes: 3 },
    });
    expect(vote.statusCode).toBe(200);
    expect((await page(bountyId)).json().rounds[0].claims[0].votes).toBe(3);
    const second = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const after = (await page(bountyId, member.auth)).json();
    expect(after.rounds[0].claims.map((c: { claimId: number }) => c.claimId)).toEqual([
      claimId,
      second,
    ]);
  });

  it("a hunter's new handle or stage name shows at once (decision 0021)", async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const own = await signUp(t.app, { hunter: true });
    await postClaim(t.app, t.root.ctx.db, own, bountyId);
    const card = async () => (await page(bountyId, member.auth)).json().rounds[0].claims[0].hunter;
    expect(await card()).toMatchObject({ stagename: null });
    const put = (url: string, payload: object) =>
      t.app.inject({ method: 'PUT', url, headers: own.auth, payload });
    expect((await put('/hunter/stagename', { stagename: 'Night Owl' })).statusCode).toBe(200);
    expect(await card()).toMatchObject({ stagename: 'Night Owl' });
    const handle = `owl${Date.now().toString(36)}`.slice(0, 15);
    expect((await put('/user/handle', { handle })).statusCode).toBe(200);
    expect(await card()).toMatchObject({ handle, stagename: 'Night Owl' });
  });

  it('a claim page is kept too: a vote on it or on another claim of its bounty shows at once', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const other = await postClaim(
      t.app,
      t.root.ctx.db,
      await signUp(t.app, { hunter: true }),
      bountyId,
    );
    const claim = (id: number, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/claim/${id}`, headers });
    const anon = await claim(claimId);
    expect(anon.statusCode).toBe(200);
    expect(anon.json()).toMatchObject({ claimId, bountyId, votes: 0 });
    expect((await claim(claimId, member.auth)).body).toBe(anon.body);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const vote = (id: number, votes: number) =>
      t.app.inject({
        method: 'POST',
        url: '/vote',
        headers: voter.auth,
        payload: { claimId: id, votes },
      });
    expect((await vote(claimId, 4)).statusCode).toBe(200);
    expect((await claim(claimId)).json()).toMatchObject({ claimId, votes: 4 });
    expect((await claim(other)).json()).toMatchObject({ claimId: other, votes: 0 });
    const voter2 = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter2.auth,
      payload: { claimId: other, votes: 2 },
    });
    expect((await claim(other, member.auth)).json()).toMatchObject({ claimId: other, votes: 2 });
    expect((await claim(claimId)).json()).toMatchObject({ claimId, votes: 4 });

    // Hidden: a 404 to the public and to members, shown (marked) to its hunter.
    await t.root.services.bounties.setClaimHidden(claimId, true);
    t.root.services.bounties.feedChanged();
    expect((await claim(claimId)).statusCode).toBe(404);
    expect((await claim(claimId, member.auth)).statusCode).toBe(404);
    const own = await claim(claimId, hunter.auth);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ claimId, hidden: true });
    expect((await claim(claimId)).statusCode).toBe(404);
  });

  it('a hidden claim shows to its hunter (marked) and to no one else, in any order of asking', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    const shown = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const other = await signUp(t.app, { hunter: true });
    const hidden = await postClaim(t.app, t.root.ctx.db, other, bountyId);
    await t.root.services.bounties.setClaimHidden(hidden, true);
    t.root.services.bounties.feedChanged();
    const ids = (r: { json(): { rounds: { claims: { claimId: number }[] }[] } }) =>
      r.json().rounds[0]!.claims.map((c) => c.claimId);
    expect(ids(await page(bountyId))).toEqual([shown]);
    expect(ids(await page(bountyId, member.auth))).toEqual([shown]);
    const own = (await page(bountyId, other.auth)).json();
    expect(own.rounds[0].claims.map((c: { claimId: number }) => c.claimId).sort()).toEqual(
      [shown, hidden].sort(),
    );
    expect(
      own.rounds[0].claims.find((c: { claimId: number }) => c.claimId === hidden),
    ).toMatchObject({ hidden: true });
    expect(ids(await page(bountyId))).toEqual([shown]);
  });

  it('a hidden bounty is a 404 to the public and shows to its poster', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    expect((await page(bountyId)).statusCode).toBe(200);
    await t.root.services.bounties.setBountyHidden(bountyId, true);
    t.root.services.bounties.feedChanged();
    expect((await page(bountyId)).statusCode).toBe(404);
    const stranger = await signUp(t.app);
    expect((await page(bountyId, stranger.auth)).statusCode).toBe(404);
    const own = await page(bountyId, member.auth);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ bountyId, hidden: true });
  });

  it('compresses a page for browsers once and answers it the same', async () => {
    const { bountyId } = await postBounty(t.app, member, { amount: 0 });
    for (let i = 0; i < 12; i++)
      await postClaim(t.app, t.root.ctx.db, await signUp(t.app, { hunter: true }), bountyId);
    const plain = await page(bountyId);
    const br = await page(bountyId, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    const { brotliDecompressSync } = await import('node:zlib');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });
});

describe('POST /bounty/search with the feed cache off: bounties kept as JSON, and deflated behind (decisions 0024, 0030)', () => {
  let t: TestApp;
  let member: Session;
  let hunter: Session;
  beforeAll(async () => {
    t = await createTestApp({
      env: { RL_REGISTER_IP: '1000/3600', FEED_CACHE_MS: '0', PAGE_CACHE_MS: '60000' },
    });
    member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
    hunter = await signUp(t.app, { hunter: true });
  });
  afterAll(() => t.close());

  type Item = { bountyId: number; rounds: { claims: { claimId: number; votes: number }[] }[] };
  const found = async (term: string, bountyId: number): Promise<Item> => {
    const res = await t.app.inject({ method: 'POST', url: '/bounty/search', payload: { term } });
    expect(res.statusCode).toBe(200);
    const item = (res.json() as Item[]).find((b) => b.bountyId === bountyId);
    expect(item, `bounty ${bountyId} for "${term}"`).toBeDefined();
    return item!;
  };

  it('a vote, a new claim, a hidden claim and a new stage name show in every search at once', async () => {
    const { bountyId } = await postBounty(t.app, member, { title: 'Lighthouse kestrel dawn' });
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    // Two different searches show (and keep) the same bounty.
    expect((await found('kestrel', bountyId)).rounds[0]!.claims).toMatchObject([
      { claimId, votes: 0 },
    ]);
    await found('lighthouse dawn', bountyId);

    await voteOn(t.app, await activeMember(t.app, t.db.handle.db, t.clock.now(), 10), claimId, 4);
    expect((await found('lighthouse', bountyId)).rounds[0]!.claims[0]).toMatchObject({
      claimId,
      votes: 4,
    });

    const second = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const withSecond = await found('dawn', bountyId);
    expect(withSecond.rounds[0]!.claims.map((c) => c.claimId)).toEqual([claimId, second]);

    await t.root.services.bounties.setClaimHidden(second, true);
    t.root.services.bounties.feedChanged();
    const hidden = await found('kestrel', bountyId);
    expect(hidden.rounds[0]!.claims.map((c) => c.claimId)).toEqual([claimId]);

    const put = await t.app.inject({
      method: 'PUT',
      url: '/hunter/stagename',
      headers: hunter.auth,
      payload: { stagename: 'Dawn Watcher' },
    });
    expect(put.statusCode).toBe(200);
    const renamed = (await found('lighthouse', bountyId)) as unknown as {
      rounds: { claims: { hunter: { stagename: string } }[] }[];
    };
    expect(renamed.rounds[0]!.claims[0]!.hunter.stagename).toBe('Dawn Watcher');
  });

  it('a two-word term (decision 0028): both words, in either order, nearer words first, paged', async () => {
    const near = await postBounty(t.app, member, { title: 'Quokka marmot meadow' });
    const far = await postBounty(t.app, member, {
      title: 'Marmot sleeps in the long green grass by a quokka',
    });
    await postBounty(t.app, member, { title: 'Marmot alone' });
    const ask = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/bounty/search', payload });
    for (const term of ['marm quok', 'Quokka MARMOT']) {
      const res = await ask({ term });
      expect(res.statusCode).toBe(200);
      // The older bounty first: its words stand together, so it ranks higher.
      expect((res.json() as Item[]).map((b) => b.bountyId)).toEqual([near.bountyId, far.bountyId]);
    }
    const first = await ask({ term: 'quokka marmot', limit: 1 });
    expect((first.json() as Item[]).map((b) => b.bountyId)).toEqual([near.bountyId]);
    const cursor = first.headers[NEXT_CURSOR_HEADER];
    expect(cursor).toBeTruthy();
    const second = await ask({ term: 'quokka marmot', limit: 1, cursor });
    expect((second.json() as Item[]).map((b) => b.bountyId)).toEqual([far.bountyId]);
    expect(second.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  type Kept = {
    bountyId: number;
    amount: number;
    status: string;
    winnerClaimId: number | null;
    rounds: { claims: { claimId: number }[] }[];
  };
  const items = async (term: string): Promise<Map<number, Kept>> => {
    const res = await t.app.inject({ method: 'POST', url: '/bounty/search', payload: { term } });
    expect(res.statusCode).toBe(200);
    return new Map((res.json() as Kept[]).map((b) => [b.bountyId, b]));
  };
  /**
   * Changed in the database behind the product's back (no event): a search showing the old
   * amount is one answered from what was kept, the new one from a build.
   */
  const setAmountBehindTheBack = (bountyId: number, amount: number) =>
    t.root.ctx.db.execute(sql`update bounties set amount = ${amount} where id = ${bountyId}`);

  it('answers a bounty the JSON tier dropped from the store, until the bounty changes', async () => {
    const { bountyId } = await postBounty(t.app, member, { title: 'Albatross lagoon reef' });
    const first = (await items('albatross')).get(bountyId)!;
    expect(first.amount).toBe(0);
    expect(t.root.itemStore.size).toBeGreaterThan(0);
    await setAmountBehindTheBack(bountyId, 777);
    // The JSON tier forgets everything (as when full); the store still holds the bounty.
    t.root.itemCache.clear();
    expect((await items('albatross lagoon')).get(bountyId)).toEqual(first);
    // A claim is a change of this bounty: dropped from both tiers, built anew.
    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, bountyId);
    const after = (await items('albatross')).get(bountyId)!;
    expect(after.amount).toBe(777);
    expect(after.rounds[0]!.claims.map((c) => c.claimId)).toEqual([claimId]);
  });

  it('builds again a kept bounty whose bytes no longer inflate, and answers it whole', async () => {
    const one = await postBounty(t.app, member, { title: 'Pelican estuary' });
    const two = await postBounty(t.app, member, { title: 'Pelican marsh' });
    const first = await items('pelican');
    expect([...first.keys()].sort()).toEqual([one.bountyId, two.bountyId].sort());
    await setAmountBehindTheBack(one.bountyId, 321);
    t.root.itemCache.clear();
    // The store's bytes for one bounty spoiled (never seen; what the answer must survive).
    t.root.itemStore.bytesOf(t.root.itemStore.take(one.bountyId)!).fill(0xff);
    const again = await items('pelican');
    expect(again.get(one.bountyId)!.amount).toBe(321); // built anew
    expect(again.get(two.bountyId)).toEqual(first.get(two.bountyId)); // still as kept
  });

  it('answers whole when every kept bounty was written over between its take and its inflate', async () => {
    const one = await postBounty(t.app, member, { title: 'Cormorant jetty' });
    const two = await postBounty(t.app, member, { title: 'Cormorant breakwater' });
    const first = await items('cormorant');
    t.root.itemCache.clear();
    // As if the ring came round over them while the search waited: every inflate refused. The
    // page is answered again without the store, its bounties built.
    const refuse = vi.spyOn(t.root.itemStore, 'inflateInto').mockReturnValue(false);
    try {
      const again = await items('cormorant');
      expect(refuse).toHaveBeenCalled();
      expect(again.get(one.bountyId)).toEqual(first.get(one.bountyId));
      expect(again.get(two.bountyId)).toEqual(first.get(two.bountyId));
    } finally {
      refuse.mockRestore();
    }
  });

  it('leaves out a bounty hidden after the walk found it and before its build', async () => {
    const shown = await postBounty(t.app, member, { title: 'Ibis heron wetland' });
    const gone = await postBounty(t.app, member, { title: 'Ibis heron mudflat' });
    const db = t.root.ctx.db;
    // The walk still finds it (its search rows kept by switching the trigger off), its row is
    // hidden, and nothing of it is kept: the moment between the walk and the bounties' read.
    await db.execute(sql`alter table bounties disable trigger bounties_prefix_pairs_update`);
    try {
      await db.execute(sql`update bounties set hidden_at = now() where id = ${gone.bountyId}`);
      t.root.itemCache.clear();
      t.root.itemStore.clear();
      const res = await t.app.inject({
        method: 'POST',
        url: '/bounty/search',
        payload: { term: 'heron ibis' },
      });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Item[]).map((b) => b.bountyId)).toEqual([shown.bountyId]);
    } finally {
      await db.execute(sql`alter table bounties enable trigger bounties_prefix_pairs_update`);
    }
    // Hidden through the trigger, the walk itself no longer finds it.
    await db.execute(sql`update bounties set hidden_at = null where id = ${gone.bountyId}`);
    await db.execute(sql`update bounties set hidden_at = now() where id = ${gone.bountyId}`);
    t.root.itemCache.clear();
    t.root.itemStore.clear();
    const hits = await searchBounties(db, { tsquery: toPrefixQuery('heron ibis')!, limit: 10 });
    expect(hits.map((h) => h.id)).toEqual([shown.bountyId]);
  });

  it('a claim, a new bounty or a closed round drops only the bounties it changed', async () => {
    const short = await postBounty(t.app, member, { title: 'Narwhal fjord', seconds: 2 * 3600 });
    const other = await postBounty(t.app, member, { title: 'Narwhal glacier' });
    expect([...(await items('narwhal')).keys()].sort()).toEqual(
      [short.bountyId, other.bountyId].sort(),
    );
    await setAmountBehindTheBack(other.bountyId, 555);

    const claimId = await postClaim(t.app, t.root.ctx.db, hunter, short.bountyId);
    const newer = await postBounty(t.app, member, { title: 'Narwhal tusk' });
    let now = await items('narwhal');
    expect(now.get(short.bountyId)!.rounds[0]!.claims.map((c) => c.claimId)).toEqual([claimId]);
    expect(now.get(newer.bountyId)).toBeDefined();
    // The other bounty did not change: still answered as kept.
    expect(now.get(other.bountyId)!.amount).toBe(0);

    t.clock.advance(3 * 3600 * 1000);
    expect(await t.root.services.bounties.closeDueRounds()).toEqual({ closed: 1, decided: 1 });
    now = await items('narwhal');
    expect(now.get(short.bountyId)).toMatchObject({ status: 'decided', winnerClaimId: claimId });
    const page = await t.app.inject({ method: 'GET', url: `/bounty/${short.bountyId}` });
    expect(page.json()).toMatchObject({ status: 'decided', winnerClaimId: claimId });
    const claimPage = await t.app.inject({ method: 'GET', url: `/claim/${claimId}` });
    expect(claimPage.statusCode).toBe(200);
    expect(now.get(other.bountyId)!.amount).toBe(0);

    // What every bounty may show (a hide, a suspension, a new stage name) drops them all.
    t.root.services.bounties.feedChanged();
    expect((await items('narwhal')).get(other.bountyId)!.amount).toBe(555);
  });
});

describe('searched bounties as JSON are kept as long as the store keeps them (decision 0030)', () => {
  // Pages kept for 40 ms, the store for a minute; a second app with the store off.
  const env = { RL_REGISTER_IP: '1000/3600', FEED_CACHE_MS: '0', PAGE_CACHE_MS: '40' };
  let withStore: TestApp;
  let withoutStore: TestApp;
  beforeAll(async () => {
    withStore = await createTestApp({ env: { ...env, ITEM_STORE_MS: '60000' } });
    withoutStore = await createTestApp({ env: { ...env, ITEM_STORE_MB: '0' } });
  });
  afterAll(async () => {
    await withStore.close();
    await withoutStore.close();
  });

  it('past PAGE_CACHE_MS a bounty is still answered from the JSON tier, not built again; with the store off it is built', async () => {
    for (const t of [withStore, withoutStore]) {
      const member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
      const { bountyId } = await postBounty(t.app, member, { title: 'Heron mudflat' });
      const search = async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/bounty/search',
          payload: { term: 'heron' },
        });
        return (res.json() as { bountyId: number; amount: number }[]).find(
          (b) => b.bountyId === bountyId,
        )!;
      };
      expect((await search()).amount).toBe(0);
      await t.root.ctx.db.execute(sql`update bounties set amount = 99 where id = ${bountyId}`);
      // Past the page time and its stale window (twice 40 ms).
      await new Promise((r) => setTimeout(r, 150));
      const kept = t === withStore;
      expect(t.root.itemCache.peek(bountyId) !== undefined).toBe(kept);
      expect((await search()).amount).toBe(kept ? 0 : 99);
    }
  });
});
