import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_MSG } from '@bountyhunt/shared/profiles';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { bounties, claims, hunters, media, posts, rounds, users } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';

let t: TestApp;
let app: FastifyInstance;
beforeAll(async () => {
  // Many sign-ups from one test client: the registration rate limit is not under test here.
  t = await createTestApp({ env: { RATE_LIMIT_ALLOW: '127.0.0.1' } });
  app = t.app;
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.db.handle.db;
let seq = 0;

/** A signed-in hunter with a handle (the handle step belongs to the accounts feature). */
async function makeHunter(handle?: string, stagename?: string) {
  const s = await signUp(app, { hunter: true });
  seq += 1;
  const h = handle ?? `hunter${seq}x${Math.floor(Math.random() * 1000)}`;
  await db().update(users).set({ handle: h }).where(eq(users.id, s.userId));
  if (stagename) await db().update(hunters).set({ stagename }).where(eq(hunters.userId, s.userId));
  const [row] = await db().select().from(hunters).where(eq(hunters.userId, s.userId));
  return { ...s, handle: h, hunterId: row!.id };
}

/** A media row as the media pipeline leaves it after an upload. */
async function makeMedia(ownerId: number, kind: 'image' | 'video' = 'image', extra = {}) {
  seq += 1;
  const key = `${kind === 'image' ? 'i-' : 'v-'}test${seq}${Math.random().toString(36).slice(2, 8)}`;
  await db()
    .insert(media)
    .values({
      key,
      ownerId,
      kind,
      status: 'ready',
      mime: kind === 'image' ? 'image/jpeg' : 'video/mp4',
      bytes: 1000,
      ...extra,
    });
  return key;
}

async function makeBounty(userId: number, title = 'Best sunset') {
  const [b] = await db().insert(bounties).values({ userId, title }).returning();
  await db()
    .insert(rounds)
    .values({ bountyId: b!.id, number: 1, endDate: new Date(Date.now() + 86_400_000) });
  return b!.id;
}

async function makeClaim(bountyId: number, hunterId: number, votes: number, createdAt: Date) {
  const [c] = await db()
    .insert(claims)
    .values({ bountyId, roundNumber: 1, hunterId, media: 'i-claim', votes, createdAt })
    .returning();
  return c!.id;
}

async function makePost(hunterId: number, createdAt: Date, text = 'hello') {
  const [p] = await db()
    .insert(posts)
    .values({ hunterId, file: 'i-post', text, createdAt })
    .returning();
  return p!.id;
}

async function get(url: string) {
  return app.inject({ method: 'GET', url });
}

/** Every page of a paged list, following x-next-cursor. */
async function allPages<T>(base: string, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const sep = base.includes('?') ? '&' : '?';
    const res = await get(
      `${base}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.statusCode).toBe(200);
    pages += 1;
    items.push(...(res.json() as T[]));
    const next = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
    if (!next) break;
    cursor = next;
    if (pages > 100) throw new Error('paging does not end');
  }
  return { items, pages };
}

describe('GET /hunter/handle/{handle}', () => {
  it('answers the hunter with real stats, case-insensitively', async () => {
    const member = await signUp(app);
    const h = await makeHunter(undefined, 'Star Light');
    const empty = await get(`/hunter/handle/${h.handle}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      hunterId: h.hunterId,
      userId: h.userId,
      handle: h.handle,
      stagename: 'Star Light',
      bio: null,
      banner: null,
      picture: null,
      stats: { posts: 0, claims: 0, votes: 0 },
    });

    const bountyId = await makeBounty(member.userId);
    await makeClaim(bountyId, h.hunterId, 7, new Date());
    await makeClaim(bountyId, h.hunterId, 5, new Date());
    await makePost(h.hunterId, new Date());
    const res = await get(`/hunter/handle/${h.handle.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().stats).toEqual({ posts: 1, claims: 2, votes: 12 });
  });

  it('answers 404 with a message for an unknown handle, and for a member', async () => {
    const res = await get('/hunter/handle/nobodyhere');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: PROFILE_MSG.noProfile, code: 'HUNTER_NOT_FOUND' });
    const member = await signUp(app);
    await db().update(users).set({ handle: 'justamember' }).where(eq(users.id, member.userId));
    expect((await get('/hunter/handle/justamember')).statusCode).toBe(404);
    const long = (await get(`/hunter/handle/${'x'.repeat(101)}`)).statusCode;
    expect(long >= 400 && long < 500).toBe(true);
    expect((await get('/hunter/handle/%25%27%3B')).statusCode).toBe(404);
  });
});

describe('GET /posts/{hunterId}', () => {
  it('lists posts newest first and pages with x-next-cursor', async () => {
    const h = await makeHunter();
    const base = Date.now() - 3_600_000;
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await makePost(h.hunterId, new Date(base + i * 1000)));
    // Two posts at the very same instant: paging must neither skip nor repeat them.
    ids.push(await makePost(h.hunterId, new Date(base + 10_000)));
    ids.push(await makePost(h.hunterId, new Date(base + 10_000)));
    const full = await get(`/posts/${h.hunterId}`);
    expect(full.statusCode).toBe(200);
    expect(full.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
    const list = full.json() as { postId: number; hunterId: number; text: string }[];
    expect(list.map((p) => p.postId)).toEqual([...ids].sort((a, b) => b - a));
    expect(list[0]).toMatchObject({ hunterId: h.hunterId, file: 'i-post', text: 'hello' });
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['bountyId', 'created', 'file', 'hunterId', 'postId', 'text'].sort(),
    );

    const paged = await allPages<{ postId: number }>(`/posts/${h.hunterId}`, 2);
    expect(paged.pages).toBe(5);
    expect(paged.items.map((p) => p.postId)).toEqual(list.map((p) => p.postId));
  });

  it('answers 404 for an unknown hunter and 400 for bad ids or cursors', async () => {
    expect((await get('/posts/999999')).statusCode).toBe(404);
    expect((await get('/posts/abc')).statusCode).toBe(400);
    expect((await get('/posts/0')).statusCode).toBe(400);
    expect((await get('/posts/99999999999999')).statusCode).toBe(400);
    const h = await makeHunter();
    // Digits only: these once read as the hunter's id (or as 0).
    for (const id of [`0x${h.hunterId.toString(16)}`, `${h.hunterId}.0`, `${h.hunterId}%20`, '%20'])
      expect((await get(`/posts/${id}`)).statusCode, id).toBe(400);
    expect((await get(`/posts/${h.hunterId}?limit=1e1`)).statusCode).toBe(400);
    const bad = await get(`/posts/${h.hunterId}?cursor=nonsense`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(PROFILE_MSG.invalidCursor);
    expect((await get(`/posts/${h.hunterId}?limit=0`)).statusCode).toBe(400);
    expect((await get(`/posts/${h.hunterId}?limit=101`)).statusCode).toBe(400);
  });
});

describe('GET /user/claims/{hunterId}', () => {
  it('lists claims newest first with rank, votes, bounty and round', async () => {
    const member = await signUp(app);
    const a = await makeHunter();
    const b = await makeHunter();
    const bountyId = await makeBounty(member.userId, 'Tallest tree');
    const t0 = Date.now() - 60_000;
    // Round 1: b has 9 votes (1st); a's two claims tie on 4 votes: the earlier ranks first.
    const aEarly = await makeClaim(bountyId, a.hunterId, 4, new Date(t0));
    await makeClaim(bountyId, b.hunterId, 9, new Date(t0 + 1000));
    const aLate = await makeClaim(bountyId, a.hunterId, 4, new Date(t0 + 2000));
    const res = await get(`/user/claims/${a.hunterId}`);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((c: { claimId: number }) => c.claimId)).toEqual([aLate, aEarly]);
    expect(list.map((c: { rank: number }) => c.rank)).toEqual([3, 2]);
    expect(list[1]).toMatchObject({
      claimId: aEarly,
      bountyId,
      bounty: { bountyId, title: 'Tallest tree' },
      roundId: 1,
      round: { roundId: 1 },
      hunter: { hunterId: a.hunterId, handle: a.handle, stagename: null, picture: null },
      media: 'i-claim',
      votes: 4,
    });
    expect(typeof list[1].round.endDate).toBe('string');
    expect((await get(`/user/claims/${b.hunterId}`)).json()[0].rank).toBe(1);
    expect((await get('/user/claims/424242')).statusCode).toBe(404);
  });
  it('ranks each claim exactly as GET /claim/rank/{claimId} does', async () => {
    const member = await signUp(app);
    const hunters = [await makeHunter(), await makeHunter(), await makeHunter()];
    const bountyId = await makeBounty(member.userId, 'Rank check');
    const t0 = Date.now() - 600_000;
    const votes = [5, 9, 5, 0, 9, 2, 5, 0];
    for (let i = 0; i < votes.length; i++)
      await makeClaim(bountyId, hunters[i % 3]!.hunterId, votes[i]!, new Date(t0 + (i % 4) * 1000));
    for (const h of hunters) {
      const list = (await get(`/user/claims/${h.hunterId}`)).json() as {
        claimId: number;
        rank: number;
      }[];
      expect(list.length).toBeGreaterThan(0);
      for (const c of list) {
        const res = await get(`/claim/rank/${c.claimId}`);
        expect(res.statusCode).toBe(200);
        expect(c.rank).toBe(res.json());
      }
    }
  });
});

describe('GET /hunter/{hunterId}/feed', () => {
  it('merges posts and claims newest first and pages without gaps or repeats', async () => {
    const member = await signUp(app);
    const h = await makeHunter();
    const bountyId = await makeBounty(member.userId);
    const t0 = Date.now() - 3_600_000;
    const expected: string[] = [];
    for (let i = 0; i < 6; i++) {
      const at = new Date(t0 + i * 1000);
      if (i % 2 === 0) expected.push(`post:${await makePost(h.hunterId, at)}`);
      else expected.push(`claim:${await makeClaim(bountyId, h.hunterId, i, at)}`);
    }
    // A post and two claims at one instant: posts first, then higher ids.
    const same = new Date(t0 + 10_000);
    const c1 = await makeClaim(bountyId, h.hunterId, 0, same);
    const p1 = await makePost(h.hunterId, same);
    const c2 = await makeClaim(bountyId, h.hunterId, 0, same);
    expected.push(`claim:${c1}`, `claim:${c2}`, `post:${p1}`);
    const order = [...expected].reverse();

    type Item = {
      type: string;
      created: string;
      post?: { postId: number };
      claim?: { claimId: number; rank: number };
    };
    const key = (i: Item) =>
      i.type === 'post' ? `post:${i.post!.postId}` : `claim:${i.claim!.claimId}`;
    const full = await get(`/hunter/${h.hunterId}/feed`);
    expect(full.statusCode).toBe(200);
    expect((full.json() as Item[]).map(key)).toEqual(order);
    for (const limit of [1, 2, 4]) {
      const paged = await allPages<Item>(`/hunter/${h.hunterId}/feed`, limit);
      expect(paged.items.map(key)).toEqual(order);
    }
    const claimItem = (full.json() as Item[]).find((i) => i.type === 'claim')!;
    expect(claimItem.claim!.rank).toBeGreaterThanOrEqual(1);
    expect((await get('/hunter/987654/feed')).statusCode).toBe(404);
    expect(
      (await get(`/hunter/${h.hunterId}/feed?cursor=${Buffer.from('x.1.2').toString('base64url')}`))
        .statusCode,
    ).toBe(400);
  });
});

describe('POST /post', () => {
  it('creates a post from an own upload, with a body of at most 200 characters', async () => {
    const h = await makeHunter();
    const key = await makeMedia(h.userId, 'image');
    const res = await app.inject({
      method: 'POST',
      url: '/post',
      headers: h.auth,
      payload: { text: 'x'.repeat(200), fileName: key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hunterId: h.hunterId,
      file: key,
      text: 'x'.repeat(200),
      bountyId: null,
    });
    const video = await makeMedia(h.userId, 'video', { status: 'processing' });
    const res2 = await app.inject({
      method: 'POST',
      url: '/post',
      headers: h.auth,
      payload: { text: '  ', fileName: video },
    });
    expect(res2.statusCode).toBe(200);
    expect(res2.json().text).toBeNull();
    const list = (await get(`/posts/${h.hunterId}`)).json();
    expect(list.map((p: { file: string }) => p.file)).toEqual([video, key]);
    expect((await get(`/hunter/handle/${h.handle}`)).json().stats.posts).toBe(2);
  });

  it('refuses 201 characters, other users\u2019 or unknown keys, members and anonymous callers', async () => {
    const h = await makeHunter();
    const other = await makeHunter();
    const key = await makeMedia(h.userId);
    const post = (payload: unknown, headers: Record<string, string> = h.auth) =>
      app.inject({ method: 'POST', url: '/post', headers, payload: payload as object });

    const long = await post({ text: 'x'.repeat(201), fileName: key });
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('VALIDATION');
    expect((await post({ text: 'hi' })).statusCode).toBe(400);
    const unknown = await post({ text: 'hi', fileName: 'i-doesnotexist' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(PROFILE_MSG.mediaUnknown);
    expect((await post({ text: 'hi', fileName: key }, other.auth)).statusCode).toBe(400);
    const failed = await makeMedia(h.userId, 'video', { status: 'failed' });
    expect((await post({ text: 'hi', fileName: failed })).statusCode).toBe(400);
    const priv = await makeMedia(h.userId, 'image', { visibility: 'private' });
    expect((await post({ text: 'hi', fileName: priv })).statusCode).toBe(400);
    expect((await post({ text: 'hi', fileName: key }, {})).statusCode).toBe(401);
    const member = await signUp(app);
    const memberKey = await makeMedia(member.userId);
    const forbidden = await post({ text: 'hi', fileName: memberKey }, member.auth);
    expect(forbidden.statusCode).toBe(403);
    expect((await post({ text: 'hi', fileName: key, bountyId: 777777 })).statusCode).toBe(404);
    const notJson = await app.inject({
      method: 'POST',
      url: '/post',
      headers: { ...h.auth, 'content-type': 'application/json' },
      payload: '{"text":',
    });
    expect(notJson.statusCode).toBe(400);
    expect((await get(`/posts/${h.hunterId}`)).json()).toEqual([]);
    // The web's message for any of these (SPEC.md §8).
    expect(PROFILE_MSG.postError(long.statusCode)).toBe('Error updating profile code 400');
  });

  it('links a post made from /bounty/post/{id} to its bounty', async () => {
    const member = await signUp(app);
    const h = await makeHunter();
    const bountyId = await makeBounty(member.userId);
    const key = await makeMedia(h.userId);
    const res = await app.inject({
      method: 'POST',
      url: '/post',
      headers: h.auth,
      payload: { text: 'for the bounty', fileName: key, bountyId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().bountyId).toBe(bountyId);
  });
});

describe('PUT /hunter/banner', () => {
  it('sets the banner to an own image and shows it on the profile', async () => {
    const h = await makeHunter();
    const key = await makeMedia(h.userId, 'image');
    const res = await app.inject({
      method: 'PUT',
      url: '/hunter/banner',
      headers: h.auth,
      payload: { banner: key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hunterId: h.hunterId, handle: h.handle, banner: key });
    expect((await get(`/hunter/handle/${h.handle}`)).json().banner).toBe(key);
    const current = await app.inject({ method: 'GET', url: '/user', headers: h.auth });
    expect(current.json().hunter.banner).toBe(key);
  });

  it('refuses videos, unknown keys, members and anonymous callers', async () => {
    const h = await makeHunter();
    const video = await makeMedia(h.userId, 'video');
    const put = (payload: object, headers: Record<string, string> = h.auth) =>
      app.inject({ method: 'PUT', url: '/hunter/banner', headers, payload });
    const v = await put({ banner: video });
    expect(v.statusCode).toBe(400);
    expect(v.json().message).toBe(PROFILE_MSG.bannerNotImage);
    expect((await put({ banner: 'i-nope' })).statusCode).toBe(400);
    expect((await put({ banner: '' })).statusCode).toBe(400);
    expect((await put({ banner: 'i-nope' }, {})).statusCode).toBe(401);
    const member = await signUp(app);
    expect((await put({ banner: await makeMedia(member.userId) }, member.auth)).statusCode).toBe(
      403,
    );
  });
});

describe('GET /hunters', () => {
  it('lists hunters with a handle alphabetically, with stats, searchable and paged', async () => {
    const member = await signUp(app);
    const tag = `q${Math.random().toString(36).slice(2, 7)}`;
    const zed = await makeHunter(`${tag}zed`, 'Zed Rider');
    const amy = await makeHunter(`${tag}Amy`);
    await makeHunter(`${tag}bob`, 'Moonwalker');
    const noHandle = await signUp(app, { hunter: true });
    expect(noHandle.userId).toBeGreaterThan(0);
    const bountyId = await makeBounty(member.userId);
    await makeClaim(bountyId, amy.hunterId, 3, new Date());
    await makePost(amy.hunterId, new Date());

    const res = await get(`/hunters?q=${tag}`);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((c: { handle: string }) => c.handle)).toEqual([
      `${tag}Amy`,
      `${tag}bob`,
      `${tag}zed`,
    ]);
    expect(list[0]).toEqual({
      hunterId: amy.hunterId,
      handle: `${tag}Amy`,
      stagename: null,
      picture: null,
      bio: null,
      stats: { posts: 1, claims: 1, votes: 3 },
    });
    // Stage name and handle, case-insensitive.
    expect(
      (await get('/hunters?q=MOONWALK')).json().map((c: { handle: string }) => c.handle),
    ).toEqual([`${tag}bob`]);
    expect((await get(`/hunters?q=${tag.toUpperCase()}ZE`)).json()[0].hunterId).toBe(zed.hunterId);
    // LIKE wildcards match themselves.
    expect((await get('/hunters?q=%25')).json()).toEqual([]);
    expect((await get('/hunters?q=_')).json()).toEqual([]);

    const paged = await allPages<{ handle: string }>(`/hunters?q=${tag}`, 2);
    expect(paged.pages).toBe(2);
    expect(paged.items.map((c) => c.handle)).toEqual(list.map((c: { handle: string }) => c.handle));
    const everyone = await allPages<{ handle: string }>('/hunters', 3);
    expect(everyone.items.every((c) => typeof c.handle === 'string' && c.handle.length > 0)).toBe(
      true,
    );
    expect(new Set(everyone.items.map((c) => c.handle)).size).toBe(everyone.items.length);
    expect((await get('/hunters?q=' + 'x'.repeat(51))).statusCode).toBe(400);
  });
});
