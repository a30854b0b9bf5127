/**
 * Reports and moderation (issue 17 part 5), on PGlite and (TEST_DATABASE_URL) PostgreSQL:
 * reporting, the grouped queue, hide and keep, and a hidden item gone from every listing.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { REPORT_CODES } from '@bountyhunt/shared/moderation';
import { auditLog, hunters, posts, reports, users } from '../../db/schema';
import { enrolledAdmin, type Auth } from '../../../test/admin-support';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';

let t: TestApp;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof enrolledAdmin>>;
const db = () => t.db.handle.db;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
  app = t.app;
  admin = await enrolledAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
/** A hunter with a handle and its hunter id. */
async function hunter(): Promise<Session & { handle: string; hunterId: number }> {
  const s = await signUp(app, { hunter: true });
  seq += 1;
  const handle = `mod${seq}x${Math.floor(Math.random() * 10000)}`;
  await db().update(users).set({ handle }).where(eq(users.id, s.userId));
  const [row] = await db().select().from(hunters).where(eq(hunters.userId, s.userId));
  return { ...s, handle, hunterId: row!.id };
}

async function makePost(hunterId: number, text: string): Promise<number> {
  const [p] = await db().insert(posts).values({ hunterId, file: 'i-post', text }).returning();
  return p!.id;
}

function report(auth: Auth | undefined, body: object) {
  return app.inject({ method: 'POST', url: '/report', headers: auth, payload: body });
}

function decide(type: string, id: number, decision: 'hide' | 'keep') {
  return app.inject({
    method: 'POST',
    url: `/admin/reports/${type}/${id}/${decision}`,
    headers: admin.auth,
  });
}

function get(url: string, auth?: Auth) {
  return app.inject({ method: 'GET', url, headers: auth });
}

function search(term = '', auth?: Auth) {
  return app.inject({
    method: 'POST',
    url: '/bounty/search',
    headers: auth,
    payload: { term, limit: 50 },
  });
}

describe('POST /report', () => {
  it('takes a reason from the list, for signed-in users, one open report per user and item', async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const { bountyId } = await postBounty(app, poster, { title: 'Report me once' });
    const reporter = await signUp(app);

    expect(
      (await report(undefined, { targetType: 'bounty', targetId: bountyId, reason: 'spam' }))
        .statusCode,
    ).toBe(401);
    expect(
      (await report(reporter.auth, { targetType: 'bounty', targetId: bountyId, reason: 'boring' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await report(reporter.auth, { targetType: 'planet', targetId: bountyId, reason: 'spam' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await report(reporter.auth, {
          targetType: 'bounty',
          targetId: bountyId,
          reason: 'other',
          text: 'x'.repeat(501),
        })
      ).statusCode,
    ).toBe(400);
    const missing = await report(reporter.auth, {
      targetType: 'claim',
      targetId: 999999,
      reason: 'spam',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe(REPORT_CODES.notFound);

    const ok = await report(reporter.auth, {
      targetType: 'bounty',
      targetId: bountyId,
      reason: 'copyright',
      text: '  my photo  ',
    });
    expect(ok.statusCode).toBe(200);
    const [row] = await db().select().from(reports).where(eq(reports.id, ok.json().reportId));
    expect(row).toMatchObject({
      reporterId: reporter.userId,
      reason: 'copyright',
      text: 'my photo',
      status: 'open',
    });

    const again = await report(reporter.auth, {
      targetType: 'bounty',
      targetId: bountyId,
      reason: 'spam',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(REPORT_CODES.alreadyReported);
    // Another user may report the same item.
    const other = await signUp(app);
    expect(
      (await report(other.auth, { targetType: 'bounty', targetId: bountyId, reason: 'spam' }))
        .statusCode,
    ).toBe(200);

    // Once the reports are closed, the same user may report the item again.
    expect((await decide('bounty', bountyId, 'keep')).statusCode).toBe(200);
    expect(
      (await report(reporter.auth, { targetType: 'bounty', targetId: bountyId, reason: 'spam' }))
        .statusCode,
    ).toBe(200);
  });

  it('is rate limited per user', async () => {
    const t2 = await createTestApp({ env: { RL_REPORT_USER: '2/3600' } });
    try {
      const poster = await activeMember(t2.app, t2.db.handle.db, t2.clock.now());
      const reporter = await signUp(t2.app);
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { bountyId } = await postBounty(t2.app, poster, { title: `Limit ${i}` });
        const res = await t2.app.inject({
          method: 'POST',
          url: '/report',
          headers: reporter.auth,
          payload: { targetType: 'bounty', targetId: bountyId, reason: 'spam' },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await t2.close();
    }
  });
});

describe('the admin queue', () => {
  it('groups open reports by item with counts, oldest or most reported first, keyset paged', async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const h = await hunter();
    const { bountyId } = await postBounty(app, poster, { title: 'Queue bounty' });
    const claimId = await postClaim(app, db(), h, bountyId);
    const postId = await makePost(h.hunterId, 'queue post');
    // Close whatever earlier tests left open, so this queue is only this test's.
    await db().update(reports).set({ status: 'kept' }).where(eq(reports.status, 'open'));

    const reporters = await Promise.all([signUp(app), signUp(app), signUp(app)]);
    // bounty: 1 report (first), claim: 3 reports, post: 2, hunter: 1 (last)
    await report(reporters[0]!.auth, { targetType: 'bounty', targetId: bountyId, reason: 'spam' });
    for (const [i, r] of reporters.entries()) {
      t.clock.advance(1000);
      await report(r.auth, {
        targetType: 'claim',
        targetId: claimId,
        reason: i === 2 ? 'nudity' : 'violence',
        text: `c${i}`,
      });
    }
    t.clock.advance(1000);
    await report(reporters[0]!.auth, {
      targetType: 'post',
      targetId: postId,
      reason: 'harassment',
    });
    await report(reporters[1]!.auth, {
      targetType: 'post',
      targetId: postId,
      reason: 'harassment',
    });
    t.clock.advance(1000);
    await report(reporters[2]!.auth, {
      targetType: 'hunter',
      targetId: h.hunterId,
      reason: 'other',
    });

    const all = await get('/admin/reports', admin.auth);
    expect(all.statusCode).toBe(200);
    expect(
      all.json().map((g: { targetType: string; count: number }) => [g.targetType, g.count]),
    ).toEqual([
      ['bounty', 1],
      ['claim', 3],
      ['post', 2],
      ['hunter', 1],
    ]);
    const claimGroup = all.json()[1];
    expect(claimGroup).toMatchObject({
      targetId: claimId,
      reasons: ['violence', 'nudity'],
      item: { title: 'Queue bounty', handle: h.handle, ownerId: h.userId, hidden: false },
    });
    expect(claimGroup.item.media).toMatch(/^i-/);
    expect(all.json()[2].item).toMatchObject({
      title: 'queue post',
      media: 'i-post',
      handle: h.handle,
    });
    expect(all.json()[3].item).toMatchObject({ handle: h.handle, ownerId: h.userId });

    // Most reported first, two per page, following the cursor.
    const seen: [string, number][] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const res = await get(
        `/admin/reports?sort=most&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        admin.auth,
      );
      expect(res.statusCode).toBe(200);
      seen.push(
        ...res
          .json()
          .map(
            (g: { targetType: string; count: number }) =>
              [g.targetType, g.count] as [string, number],
          ),
      );
      cursor = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual([
      ['claim', 3],
      ['post', 2],
      ['bounty', 1],
      ['hunter', 1],
    ]);

    // Oldest first, one per page.
    const oldest: string[] = [];
    cursor = undefined;
    for (let pages = 0; pages < 6; pages++) {
      const res = await get(
        `/admin/reports?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        admin.auth,
      );
      oldest.push(...res.json().map((g: { targetType: string }) => g.targetType));
      cursor = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
      if (!cursor) break;
    }
    expect(oldest).toEqual(['bounty', 'claim', 'post', 'hunter']);

    const onlyPosts = await get('/admin/reports?targetType=post', admin.auth);
    expect(onlyPosts.json().map((g: { targetId: number }) => g.targetId)).toEqual([postId]);
    expect((await get('/admin/reports?cursor=nonsense', admin.auth)).statusCode).toBe(400);

    // The reports of one item, oldest first, paged.
    const first = await get(`/admin/reports/claim/${claimId}?limit=2`, admin.auth);
    expect(first.statusCode).toBe(200);
    expect(first.json().map((r: { text: string }) => r.text)).toEqual(['c0', 'c1']);
    expect(first.json()[0]).toMatchObject({
      reporterId: reporters[0]!.userId,
      reporterEmail: reporters[0]!.email,
      status: 'open',
    });
    const next = first.headers[NEXT_CURSOR_HEADER] as string;
    const second = await get(`/admin/reports/claim/${claimId}?limit=2&cursor=${next}`, admin.auth);
    expect(second.json().map((r: { text: string }) => r.text)).toEqual(['c2']);
    expect(second.headers[NEXT_CURSOR_HEADER]).toBeUndefined();

    // Members cannot see the queue.
    expect((await get('/admin/reports', reporters[0]!.auth)).statusCode).toBe(403);
  });
});

describe('hide and keep', () => {
  it('keep closes the reports, leaves the item visible and writes the audit row', async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const h = await hunter();
    const { bountyId } = await postBounty(app, poster, { title: 'Keep this one' });
    const claimId = await postClaim(app, db(), h, bountyId);
    const reporter = await signUp(app);
    await report(reporter.auth, { targetType: 'claim', targetId: claimId, reason: 'spam' });

    const res = await decide('claim', claimId, 'keep');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      targetType: 'claim',
      targetId: claimId,
      hidden: false,
      closed: 1,
    });
    const rows = await db().select().from(reports).where(eq(reports.targetId, claimId));
    expect(rows.filter((r) => r.targetType === 'claim')).toMatchObject([
      { status: 'kept', resolvedBy: admin.userId },
    ]);
    expect((await get(`/claim/${claimId}`)).statusCode).toBe(200);
    const queue = await get('/admin/reports?targetType=claim&limit=200', admin.auth);
    expect(queue.json().some((g: { targetId: number }) => g.targetId === claimId)).toBe(false);

    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(claimId)));
    expect(audit.filter((a) => a.targetType === 'claim')).toMatchObject([
      {
        actorId: admin.userId,
        action: 'report.keep',
        before: { hiddenAt: null, openReports: 1 },
        after: { hiddenAt: null, openReports: 0 },
      },
    ]);
    expect((await decide('claim', 999999, 'keep')).statusCode).toBe(404);
  });

  it('a hidden claim takes no further votes; keep shows it again', async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const voter = await activeMember(app, db(), t.clock.now());
    const h = await hunter();
    const { bountyId } = await postBounty(app, poster, { title: 'Vote on hidden' });
    const claimId = await postClaim(app, db(), h, bountyId);
    const vote = () =>
      app.inject({
        method: 'POST',
        url: '/vote',
        headers: voter.auth,
        payload: { claimId, votes: 2 },
      });

    const hide = await decide('claim', claimId, 'hide');
    expect(hide.statusCode).toBe(200);
    expect(hide.json()).toMatchObject({ hidden: true, closed: 0 });
    const refused = await vote();
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('CLAIM_NOT_FOUND');

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(claimId)));
    expect(audit).toMatchObject({ action: 'report.hide', before: { hiddenAt: null } });
    expect((audit!.after as { hiddenAt: string }).hiddenAt).toEqual(expect.any(String));

    expect((await decide('claim', claimId, 'keep')).statusCode).toBe(200);
    const ok = await vote();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().votes).toBe(2);
  });
});

interface Probe {
  name: string;
  /** Whether this caller's answer shows the item; `hidden` when it is marked hidden. */
  shows(auth?: Auth): Promise<boolean | 'hidden'>;
  /** Lists shown alike to everyone (the cached feed, the directory): gone for owners too. */
  everyone?: boolean;
  /** What the owner sees: the item marked hidden (default), or unmarked (an item of a hidden one). */
  owner?: 'hidden' | true;
}

describe('a hidden item is gone from every listing', () => {
  /** Looks for `match` in a JSON answer; 'hidden' when the matched object has hidden: true. */
  function find(body: unknown, match: (o: Record<string, unknown>) => boolean): boolean | 'hidden' {
    let found: boolean | 'hidden' = false;
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (match(o)) found = o.hidden === true ? 'hidden' : found || true;
        Object.values(o).forEach(walk);
      }
    };
    walk(body);
    return found;
  }
  const inList =
    (url: string | (() => string), match: (o: Record<string, unknown>) => boolean) =>
    async (auth?: Auth) => {
      const res = await get(typeof url === 'string' ? url : url(), auth);
      return res.statusCode === 200 ? find(res.json(), match) : false;
    };
  const inFeed =
    (term: string, match: (o: Record<string, unknown>) => boolean) => async (auth?: Auth) =>
      find((await search(term, auth)).json(), match);

  it('claims, posts, bounties and hunters: for everyone but the owner (marked hidden) and admins', async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const stranger = await signUp(app);
    const h = await hunter();
    const word = `zebra${Math.floor(Math.random() * 1e6)}`;
    const { bountyId } = await postBounty(app, poster, { title: `${word} bounty` });
    const claimId = await postClaim(app, db(), h, bountyId);
    const postId = await makePost(h.hunterId, 'a post to hide');

    const isClaim = (o: Record<string, unknown>) => o.claimId === claimId;
    const isPost = (o: Record<string, unknown>) => o.postId === postId;
    const isBounty = (o: Record<string, unknown>) => o.bountyId === bountyId && 'rounds' in o;
    const isHunter = (o: Record<string, unknown>) => o.hunterId === h.hunterId && 'handle' in o;

    const claimProbes: Probe[] = [
      { name: 'feed', shows: inFeed('', isClaim), everyone: true },
      { name: 'search', shows: inFeed(word, isClaim), everyone: true },
      { name: 'bounty page', shows: inList(`/bounty/${bountyId}`, isClaim) },
      { name: 'claim page', shows: inList(`/claim/${claimId}`, isClaim) },
      {
        name: 'claim rank',
        shows: async (auth) => (await get(`/claim/rank/${claimId}`, auth)).statusCode === 200,
        owner: true,
      },
      { name: 'profile claims', shows: inList(`/user/claims/${h.hunterId}`, isClaim) },
      { name: 'profile feed', shows: inList(`/hunter/${h.hunterId}/feed`, isClaim) },
    ];
    const postProbes: Probe[] = [
      { name: 'profile posts', shows: inList(`/posts/${h.hunterId}`, isPost) },
      { name: 'profile feed', shows: inList(`/hunter/${h.hunterId}/feed`, isPost) },
    ];
    const bountyProbes: Probe[] = [
      { name: 'feed', shows: inFeed('', isBounty), everyone: true },
      { name: 'search', shows: inFeed(word, isBounty), everyone: true },
      { name: 'bounty page', shows: inList(`/bounty/${bountyId}`, isBounty) },
      // Its claims go with it (the owner here is the poster, not the claim's hunter).
      { name: 'its claim page', shows: inList(`/claim/${claimId}`, isClaim), everyone: true },
      {
        name: 'its claim on the profile',
        shows: inList(`/user/claims/${h.hunterId}`, isClaim),
        everyone: true,
      },
    ];
    const hunterProbes: Probe[] = [
      { name: 'profile', shows: inList(`/hunter/handle/${h.handle}`, isHunter) },
      { name: 'profile posts', shows: inList(`/posts/${h.hunterId}`, isPost), owner: true },
      {
        name: 'profile claims',
        shows: inList(`/user/claims/${h.hunterId}`, isClaim),
        owner: true,
      },
      { name: 'profile feed', shows: inList(`/hunter/${h.hunterId}/feed`, isClaim), owner: true },
      {
        name: 'directory',
        shows: inList(`/hunters?q=${h.handle}`, (o) => o.hunterId === h.hunterId),
        everyone: true,
      },
      // A hidden hunter's claims leave the bounty page, the claim page and the feed.
      { name: 'bounty page', shows: inList(`/bounty/${bountyId}`, isClaim), owner: true },
      { name: 'claim page', shows: inList(`/claim/${claimId}`, isClaim), owner: true },
      { name: 'feed', shows: inFeed('', isClaim), everyone: true },
    ];

    const cases: { type: string; id: number; owner: Session; probes: Probe[] }[] = [
      { type: 'claim', id: claimId, owner: h, probes: claimProbes },
      { type: 'post', id: postId, owner: h, probes: postProbes },
      { type: 'bounty', id: bountyId, owner: poster, probes: bountyProbes },
      { type: 'hunter', id: h.hunterId, owner: h, probes: hunterProbes },
    ];

    for (const c of cases) {
      const label = (p: Probe, who: string) => `${c.type} / ${p.name} / ${who}`;
      const before: Record<string, boolean | 'hidden'> = {};
      for (const p of c.probes) before[label(p, 'stranger')] = await p.shows(stranger.auth);
      expect(before, 'shown before the hide').toEqual(
        Object.fromEntries(Object.keys(before).map((k) => [k, true])),
      );

      await report(stranger.auth, { targetType: c.type, targetId: c.id, reason: 'spam' });
      expect((await decide(c.type, c.id, 'hide')).json()).toMatchObject({
        hidden: true,
        closed: 1,
      });

      const got: Record<string, boolean | 'hidden'> = {};
      const want: Record<string, boolean | 'hidden'> = {};
      for (const p of c.probes) {
        got[label(p, 'anonymous')] = await p.shows();
        want[label(p, 'anonymous')] = false;
        got[label(p, 'stranger')] = await p.shows(stranger.auth);
        want[label(p, 'stranger')] = false;
        if (!p.everyone) {
          got[label(p, 'owner')] = await p.shows(c.owner.auth);
          want[label(p, 'owner')] = p.owner ?? 'hidden';
          got[label(p, 'admin')] = (await p.shows(admin.auth)) !== false;
          want[label(p, 'admin')] = true;
        }
      }
      expect(got).toEqual(want);

      // Keep shows it again everywhere.
      expect((await decide(c.type, c.id, 'keep')).statusCode).toBe(200);
      for (const p of c.probes)
        expect(await p.shows(stranger.auth), label(p, 'after keep')).toBe(true);
    }

    // The hunter profile answer carries the mark for its owner.
    const hide = await decide('hunter', h.hunterId, 'hide');
    expect(hide.statusCode).toBe(200);
    expect((await get(`/hunter/handle/${h.handle}`, h.auth)).json().hidden).toBe(true);
    expect((await get(`/hunter/handle/${h.handle}`)).statusCode).toBe(404);
    await decide('hunter', h.hunterId, 'keep');
  });

  it('the feed cache serves no hidden item after a hide', async () => {
    const t2 = await createTestApp({ env: { FEED_CACHE_MS: '60000', PAGE_CACHE_MS: '60000' } });
    try {
      const a2 = await enrolledAdmin(t2);
      const poster = await activeMember(t2.app, t2.db.handle.db, t2.clock.now());
      const { bountyId } = await postBounty(t2.app, poster, { title: 'Cached bounty' });
      const feed = async () =>
        (await t2.app.inject({ method: 'POST', url: '/bounty/search', payload: {} }))
          .json()
          .map((b: { bountyId: number }) => b.bountyId);
      expect(await feed()).toContain(bountyId);
      const res = await t2.app.inject({
        method: 'POST',
        url: `/admin/reports/bounty/${bountyId}/hide`,
        headers: a2.auth,
      });
      expect(res.statusCode).toBe(200);
      expect(await feed()).not.toContain(bountyId);
    } finally {
      await t2.close();
    }
  });

  it("a suspended user's claims and profile are gone like hidden ones", async () => {
    const poster = await activeMember(app, db(), t.clock.now());
    const h = await hunter();
    const { bountyId } = await postBounty(app, poster, { title: 'Suspended hunter bounty' });
    const claimId = await postClaim(app, db(), h, bountyId);
    await db().update(users).set({ suspendedAt: t.clock.now() }).where(eq(users.id, h.userId));

    expect((await get(`/claim/${claimId}`)).statusCode).toBe(404);
    expect((await get(`/bounty/${bountyId}`)).json().rounds[0].claims).toEqual([]);
    expect((await get(`/hunter/handle/${h.handle}`)).statusCode).toBe(404);
    expect((await get(`/user/claims/${h.hunterId}`)).statusCode).toBe(404);
    expect((await get(`/hunters?q=${h.handle}`)).json()).toEqual([]);
    const feed = await search('Suspended hunter');
    expect(feed.json()[0].rounds[0].claims).toEqual([]);
    // Admins still see it.
    expect((await get(`/claim/${claimId}`, admin.auth)).statusCode).toBe(200);
  });
});
