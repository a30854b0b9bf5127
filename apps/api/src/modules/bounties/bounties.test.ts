import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAYMENT_MSG } from '@bountyhunt/shared/billing';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';
import { bounties, silverLedger } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import {
  activeMember,
  postBounty,
  postClaim,
  silverOf,
  type Session,
} from '../../../test/factories';
import { toPrefixQuery } from './bounties.service';

let t: TestApp;
let member: Session;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
  member = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
});
afterAll(() => t.close());

const post = (s: Session | null, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/bounty',
    headers: s?.auth ?? {},
    payload: payload as object,
  });

describe('POST /bounty', () => {
  it('creates the bounty with round 1 ending `seconds` from now, in the CONTRACT.md shape', async () => {
    const now = t.clock.now();
    const res = await post(member, { title: '  Funniest cat  ', seconds: 8 * 3600 });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({
      title: 'Funniest cat',
      amount: 0,
      mediaType: 1,
      userId: member.userId,
      roundCount: 1,
      status: 'open',
      winnerClaimId: null,
    });
    expect(b.id).toBe(b.bountyId);
    expect(b.rounds).toEqual([
      { roundId: 1, endDate: new Date(now.getTime() + 8 * 3600_000).toISOString(), claims: [] },
    ]);
    expect(Object.keys(b).sort()).toEqual(
      [
        'bountyId',
        'id',
        'title',
        'amount',
        'mediaType',
        'userId',
        'created',
        'roundCount',
        'status',
        'winnerClaimId',
        'rounds',
      ].sort(),
    );
  });

  it('holds the amount from the poster in one ledger row; 402 when short and nothing changes', async () => {
    const m = await activeMember(t.app, t.db.handle.db, t.clock.now(), 30);
    const res = await post(m, { title: 'Prize bounty', seconds: 7200, amount: 20, mediaType: 4 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ amount: 20, mediaType: 4 });
    expect((await silverOf(t.db.handle.db, m.userId)).silver).toBe(10);
    const ledger = await t.db.handle.db
      .select()
      .from(silverLedger)
      .where(eq(silverLedger.userId, m.userId));
    expect(ledger).toMatchObject([
      { delta: -20, balanceAfter: 10, reason: 'bounty_hold', refId: res.json().bountyId },
    ]);

    const before = await t.db.handle.db.select().from(bounties);
    const short = await post(m, { title: 'Too rich', seconds: 7200, amount: 11 });
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({
      message: PAYMENT_MSG.notEnoughSilver,
      code: 'NOT_ENOUGH_SILVER',
    });
    expect(await t.db.handle.db.select().from(bounties)).toHaveLength(before.length);
    expect((await silverOf(t.db.handle.db, m.userId)).silver).toBe(10);
  });

  it('answers the SPEC.md §8 messages for a blank title and too few seconds', async () => {
    for (const title of ['', '   ']) {
      const res = await post(member, { title, seconds: 7200 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(BOUNTY_MSG.titleBlank);
    }
    const long = await post(member, { title: 't'.repeat(101), seconds: 7200 });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(BOUNTY_MSG.titleTooLong);
    for (const seconds of [3600, 60, -1, 1.5, '7200']) {
      const res = await post(member, { title: 'x', seconds });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(BOUNTY_MSG.hoursInvalid);
    }
    expect((await post(member, { title: 'x', seconds: 3601 })).statusCode).toBe(200);
    expect((await post(member, { title: 'x', seconds: 7200, mediaType: 3 })).statusCode).toBe(400);
    expect((await post(member, { title: 'x', seconds: 7200, amount: -1 })).statusCode).toBe(400);
    expect((await post(member, { title: 'x'.repeat(101), seconds: 7200 })).statusCode).toBe(400);
  });

  it('needs a signed-in member with an active membership', async () => {
    expect((await post(null, { title: 'x', seconds: 7200 })).statusCode).toBe(401);
    const notYet = await signUp(t.app);
    const res = await post(notYet, { title: 'x', seconds: 7200 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('MEMBERSHIP_REQUIRED');
    const hunter = await signUp(t.app, { hunter: true });
    expect((await post(hunter, { title: 'x', seconds: 7200 })).statusCode).toBe(403);
    const expired = await activeMember(
      t.app,
      t.db.handle.db,
      new Date(t.clock.now().getTime() - 31 * 86400_000),
    );
    expect((await post(expired, { title: 'x', seconds: 7200 })).statusCode).toBe(403);
  });
});

describe('GET /bounty/{id}', () => {
  it('answers the bounty with its rounds and ranked claims', async () => {
    const { bountyId } = await postBounty(t.app, member, { title: 'Page bounty' });
    const hunter = await signUp(t.app, { hunter: true });
    const c1 = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
    const c2 = await postClaim(t.app, t.db.handle.db, hunter, bountyId, 1, 'video');
    const res = await t.app.inject({ method: 'GET', url: `/bounty/${bountyId}` });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b.title).toBe('Page bounty');
    expect(b.rounds).toHaveLength(1);
    expect(b.rounds[0].claims.map((c: { claimId: number }) => c.claimId)).toEqual([c1, c2]);
    expect(b.rounds[0].claims[1].media).toMatch(/^v-/);
  });

  it('is 404 for unknown or malformed ids, never 500', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await t.app.inject({ method: 'GET', url: `/bounty/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toHaveProperty('code');
    }
  });
});

describe('POST /bounty/search', () => {
  let ids: Record<string, number>;
  let searcher: Session;
  beforeAll(async () => {
    searcher = await activeMember(t.app, t.db.handle.db, t.clock.now());
    ids = {};
    for (const title of [
      'Photograph a wild zebra',
      'Zebra crossing at night',
      'Zebra zebra zebra stripes',
      'Mountain sunrise',
    ]) {
      t.clock.advance(1000);
      ids[title] = (await postBounty(t.app, searcher, { title })).bountyId;
    }
  });

  const search = (body: object) =>
    t.app.inject({ method: 'POST', url: '/bounty/search', payload: body });

  it('matches title words by prefix, most relevant first, then newest', async () => {
    const res = await search({ term: 'zeb', excludeId: null });
    expect(res.statusCode).toBe(200);
    const titles = res.json().map((b: { title: string }) => b.title);
    expect(titles[0]).toBe('Zebra zebra zebra stripes');
    expect(titles.slice(1)).toEqual(['Zebra crossing at night', 'Photograph a wild zebra']);
    const two = await search({ term: 'PHOTO zeb' });
    expect(two.json().map((b: { title: string }) => b.title)).toEqual(['Photograph a wild zebra']);
    const none = await search({ term: 'zebraz' });
    expect(none.json()).toEqual([]);
  });

  it('lists every bounty newest first for an empty term, minus excludeId', async () => {
    const res = await search({ term: '', excludeId: ids['Mountain sunrise'], limit: 50 });
    const list = res.json() as { bountyId: number; created: string }[];
    expect(list.map((b) => b.bountyId)).not.toContain(ids['Mountain sunrise']);
    expect(list[0]!.bountyId).toBe(ids['Zebra zebra zebra stripes']);
    const created = list.map((b) => b.created);
    expect([...created].sort().reverse()).toEqual(created);
    // A numeric string works too (SPEC.md does not type excludeId).
    const again = await search({ term: 'mountain', excludeId: String(ids['Mountain sunrise']) });
    expect(again.json()).toEqual([]);
  });

  it('ignores tsquery syntax in the term', async () => {
    expect(toPrefixQuery("a:* | !b & (c) 'd'")).toBe('a:* & b:* & c:* & d:*');
    expect(toPrefixQuery('  ,;:  ')).toBeNull();
    for (const term of ['&', '!!', ':*', "'", '\\', 'zebra & | !']) {
      expect((await search({ term })).statusCode, term).toBe(200);
    }
  });

  it('pages with the x-next-cursor header until the last page, with no repeats or gaps', async () => {
    for (const term of ['', 'zebra']) {
      const all = (await search({ term, limit: 50 }))
        .json()
        .map((b: { bountyId: number }) => b.bountyId);
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 50; i++) {
        const res = await search({ term, limit: 2, ...(cursor ? { cursor } : {}) });
        expect(res.statusCode).toBe(200);
        seen.push(...res.json().map((b: { bountyId: number }) => b.bountyId));
        cursor = res.headers[NEXT_CURSOR_HEADER] as string | undefined;
        if (!cursor) break;
      }
      expect(seen).toEqual(all);
    }
  });

  it('shows the claims of each round, at most a grid per round', async () => {
    const hunter = await signUp(t.app, { hunter: true });
    const c = await postClaim(t.app, t.db.handle.db, hunter, ids['Mountain sunrise']!);
    const res = await search({ term: 'mountain sun' });
    const [b] = res.json();
    expect(b.rounds[0].claims.map((x: { claimId: number }) => x.claimId)).toEqual([c]);
    expect(b.rounds[0].claims[0]).toMatchObject({
      bountyId: ids['Mountain sunrise'],
      bounty: { bountyId: ids['Mountain sunrise'], title: 'Mountain sunrise' },
      roundId: 1,
      votes: 0,
    });
  });

  it('rejects a bad cursor or limit with 400', async () => {
    expect((await search({ term: '', cursor: 'nope' })).statusCode).toBe(400);
    const forged = Buffer.from(JSON.stringify({ c: "x'; drop table bounties", i: 1 })).toString(
      'base64url',
    );
    expect((await search({ term: '', cursor: forged })).statusCode).toBe(400);
    expect((await search({ term: '', limit: 0 })).statusCode).toBe(400);
    expect((await search({ term: '', limit: 51 })).statusCode).toBe(400);
  });
});
