import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';
import { users } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { activeMember, postBounty, postClaim, type Session } from '../../../test/factories';
import { insertMediaRow } from '../../../test/factories';

let t: TestApp;
let member: Session;
let hunter: Session;
let bountyId: number;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
  member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
  hunter = await signUp(t.app, { hunter: true });
  await t.db.handle.db.update(users).set({ handle: 'snapper' }).where(eq(users.id, hunter.userId));
  bountyId = (await postBounty(t.app, member, { title: 'Claim me' })).bountyId;
});
afterAll(() => t.close());

const claim = (s: Session | null, payload: object) =>
  t.app.inject({ method: 'POST', url: '/claim', headers: s?.auth ?? {}, payload });

describe('POST /claim', () => {
  it('puts the hunter’s uploaded media into the current round and answers the claim', async () => {
    const key = await insertMediaRow(t.db.handle.db, hunter.userId);
    const res = await claim(hunter, { bountyId, roundId: 1, media: key, multiple: true });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      bountyId,
      bounty: { bountyId, title: 'Claim me' },
      roundId: 1,
      round: { roundId: 1 },
      hunter: { handle: 'snapper', stagename: null, picture: null },
      media: key,
      votes: 0,
      created: t.clock.now().toISOString(),
    });
    expect(typeof c.claimId).toBe('number');
    const got = await t.app.inject({ method: 'GET', url: `/claim/${c.claimId}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(c);
  });

  it('accepts a video whose preview is still being made', async () => {
    const key = await insertMediaRow(t.db.handle.db, hunter.userId, {
      kind: 'video',
      status: 'processing',
    });
    const res = await claim(hunter, { bountyId, roundId: 1, media: key });
    expect(res.statusCode).toBe(200);
  });

  it('refuses media that is unknown, someone else’s or failed', async () => {
    const other = await signUp(t.app, { hunter: true });
    const theirs = await insertMediaRow(t.db.handle.db, other.userId);
    const failed = await insertMediaRow(t.db.handle.db, hunter.userId, {
      kind: 'image',
      status: 'failed',
    });
    for (const media of ['i-does-not-exist', theirs]) {
      const res = await claim(hunter, { bountyId, roundId: 1, media });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: BOUNTY_MSG.mediaUnknown, code: 'MEDIA_UNKNOWN' });
    }
    expect((await claim(hunter, { bountyId, roundId: 1, media: failed })).statusCode).toBe(400);
    expect((await claim(hunter, { bountyId, roundId: 1, media: '' })).statusCode).toBe(400);
  });

  it('needs a hunter: 401 anonymous, 403 member', async () => {
    const key = await insertMediaRow(t.db.handle.db, member.userId);
    expect((await claim(null, { bountyId, roundId: 1, media: key })).statusCode).toBe(401);
    const res = await claim(member, { bountyId, roundId: 1, media: key });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('HUNTER_REQUIRED');
  });

  it('is 404 for an unknown bounty and 409 for a round that is not the current one', async () => {
    const key = await insertMediaRow(t.db.handle.db, hunter.userId);
    expect((await claim(hunter, { bountyId: 999999, roundId: 1, media: key })).statusCode).toBe(
      404,
    );
    const res = await claim(hunter, { bountyId, roundId: 2, media: key });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ROUND_NOT_ACTIVE');
  });

  it('with multiple: false allows one claim per hunter per round, even when racing', async () => {
    const { bountyId: b } = await postBounty(t.app, member, { title: 'One each' });
    const h = await signUp(t.app, { hunter: true });
    const keys = await Promise.all(
      Array.from({ length: 5 }, () => insertMediaRow(t.db.handle.db, h.userId)),
    );
    const results = await Promise.all(
      keys.map((media) => claim(h, { bountyId: b, roundId: 1, media, multiple: false })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('ONE_CLAIM_PER_ROUND');
    // multiple: true still lets the hunter add more.
    const more = await claim(h, { bountyId: b, roundId: 1, media: keys[0]!, multiple: true });
    expect(more.statusCode).toBe(200);
  });

  it('is 409 once the round has ended', async () => {
    const { bountyId: b } = await postBounty(t.app, member, { title: 'Short', seconds: 3601 });
    const key = await insertMediaRow(t.db.handle.db, hunter.userId);
    t.clock.advance(3602_000);
    const res = await claim(hunter, { bountyId: b, roundId: 1, media: key });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: BOUNTY_MSG.roundNotActive, code: 'ROUND_NOT_ACTIVE' });
  });
});

describe('GET /claim/{id} and /claim/rank/{id}', () => {
  it('is 404 for unknown or malformed ids', async () => {
    for (const url of ['/claim/999999', '/claim/x', '/claim/rank/999999', '/claim/rank/x']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('ranks by votes within the round, ties to the earlier claim', async () => {
    const { bountyId: b } = await postBounty(t.app, member, { title: 'Ranked' });
    const h2 = await signUp(t.app, { hunter: true });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      t.clock.advance(1000);
      ids.push(await postClaim(t.app, t.db.handle.db, i % 2 ? h2 : hunter, b));
    }
    const rank = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/claim/rank/${id}` })).json();
    // No votes yet: creation order.
    expect(await Promise.all(ids.map(rank))).toEqual([1, 2, 3, 4]);
    const voters = await Promise.all(
      [0, 1, 2].map(() => activeMember(t.app, t.db.handle.db, t.clock.now(), 10)),
    );
    const vote = (s: Session, claimId: number, votes: number) =>
      t.app.inject({ method: 'POST', url: '/vote', headers: s.auth, payload: { claimId, votes } });
    expect((await vote(voters[0]!, ids[3]!, 3)).statusCode).toBe(200);
    expect((await vote(voters[1]!, ids[2]!, 3)).statusCode).toBe(200);
    expect((await vote(voters[2]!, ids[1]!, 1)).statusCode).toBe(200);
    // ids[2] and ids[3] tie on 3: the earlier (ids[2]) ranks first.
    expect(await Promise.all(ids.map(rank))).toEqual([4, 3, 1, 2]);
    const page = (await t.app.inject({ method: 'GET', url: `/bounty/${b}` })).json();
    expect(page.rounds[0].claims.map((c: { claimId: number }) => c.claimId)).toEqual([
      ids[2],
      ids[3],
      ids[1],
      ids[0],
    ]);
    const res = await t.app.inject({ method: 'GET', url: `/claim/rank/${ids[2]}` });
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toBe('1');
  });
});
