import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';
import { queryRows } from '../../db/client';
import { claims, silverLedger, users, votes } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { ledgerRecount } from '../payouts/ledger.service';
import {
  activeMember,
  DELUXE_HUNTER_MICROS_PER_SILVER,
  earningsOf,
  postBounty,
  postClaim,
  silverOf,
  type Session,
} from '../../../test/factories';

let t: TestApp;
let poster: Session;
let hunter: Session;
let bountyId: number;
let claimId: number;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600', RL_VOTE_USER: '1000/60' } });
  poster = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
  hunter = await signUp(t.app, { hunter: true });
  bountyId = (await postBounty(t.app, poster, { title: 'Vote on me' })).bountyId;
  claimId = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
});
afterAll(() => t.close());

const settle = () => t.root.services.bounties.settleEarnings();
const vote = (s: Session | null, payload: object) =>
  t.app.inject({ method: 'POST', url: '/vote', headers: s?.auth ?? {}, payload });
const myVote = (s: Session, id: number) =>
  t.app.inject({ method: 'GET', url: `/vote/${id}`, headers: s.auth });

describe('POST /vote and GET /vote/{claimId}', () => {
  it('records the vote, takes n silver from the voter, adds n votes and earns the hunter money, once', async () => {
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    expect((await myVote(voter, claimId)).body).toBe('0');
    const hunterBefore = await silverOf(t.db.handle.db, hunter.userId);
    const earnedBefore = await earningsOf(t.db.handle.db, hunter.userId);
    const res = await vote(voter, { claimId, votes: 4 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ claimId, vote: 4, votes: 4, silver: 6 });
    expect(await silverOf(t.db.handle.db, voter.userId)).toEqual({ silver: 6, votes: 4 });
    // The hunter's earnings wait for the settle job, then arrive once, as money (pending) and
    // not as silver: 4 Deluxe silver at the 0.80 creator share.
    expect(await earningsOf(t.db.handle.db, hunter.userId)).toEqual(earnedBefore);
    expect(await settle()).toEqual({ votes: 1, credited: 4 });
    expect(await settle()).toEqual({ votes: 0, credited: 0 });
    expect((await silverOf(t.db.handle.db, hunter.userId)).silver).toBe(hunterBefore.silver);
    expect(await earningsOf(t.db.handle.db, hunter.userId)).toEqual({
      pending: earnedBefore.pending + 4 * DELUXE_HUNTER_MICROS_PER_SILVER,
      available: 0,
    });
    const got = await myVote(voter, claimId);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toBe(4);
    const c = (await t.app.inject({ method: 'GET', url: `/claim/${claimId}` })).json();
    expect(c.votes).toBe(4);
    const ledger = await t.db.handle.db
      .select()
      .from(silverLedger)
      .where(eq(silverLedger.refId, claimId));
    expect(ledger.map((l) => [l.userId, l.delta, l.reason])).toEqual([[voter.userId, -4, 'vote']]);

    const again = await vote(voter, { claimId, votes: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: BOUNTY_MSG.alreadyVoted, code: 'ALREADY_VOTED' });
    expect(await silverOf(t.db.handle.db, voter.userId)).toEqual({ silver: 6, votes: 4 });
  });

  it('is 400 for n outside 1..5 or a bad claim id', async () => {
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    for (const votes of [0, 6, -1, 2.5, '3', null]) {
      expect((await vote(voter, { claimId, votes })).statusCode, String(votes)).toBe(400);
    }
    expect((await vote(voter, { claimId: 'x', votes: 1 })).statusCode).toBe(400);
    expect((await vote(voter, { votes: 1 })).statusCode).toBe(400);
    expect((await vote(voter, { claimId: 999999, votes: 1 })).statusCode).toBe(404);
  });

  it('is 402 without enough silver, and nothing is recorded', async () => {
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 2);
    const res = await vote(voter, { claimId, votes: 3 });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('NOT_ENOUGH_SILVER');
    expect((await myVote(voter, claimId)).json()).toBe(0);
    expect(await silverOf(t.db.handle.db, voter.userId)).toEqual({ silver: 2, votes: 0 });
    // The failed attempt does not count as a vote: a smaller one still works.
    expect((await vote(voter, { claimId, votes: 2 })).statusCode).toBe(200);
  });

  it('is 401 anonymous and 403 for hunters, members without an active membership, or own claims', async () => {
    expect((await vote(null, { claimId, votes: 1 })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/vote/${claimId}` })).statusCode).toBe(401);
    expect((await vote(hunter, { claimId, votes: 1 })).statusCode).toBe(403);
    const lapsed = await activeMember(
      t.app,
      t.db.handle.db,
      new Date(t.clock.now().getTime() - 40 * 86400_000),
      10,
    );
    const res = await vote(lapsed, { claimId, votes: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('MEMBERSHIP_REQUIRED');
    // A member who is also a hunter cannot vote on their own claim.
    const both = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    await t.db.handle.db.update(users).set({ role: 3 }).where(eq(users.id, both.userId));
    await queryRows(t.db.handle.db, sql`insert into hunters (user_id) values (${both.userId})`);
    const ownClaim = await postClaim(t.app, t.db.handle.db, both, bountyId);
    const r = await vote(both, { claimId: ownClaim, votes: 1 });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ message: BOUNTY_MSG.ownClaim, code: 'OWN_CLAIM' });
  });

  it('is 409 once the round is no longer Active', async () => {
    const { bountyId: b } = await postBounty(t.app, poster, { title: 'Ends soon', seconds: 3601 });
    const c = await postClaim(t.app, t.db.handle.db, hunter, b);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    t.clock.advance(3600_000);
    // Still Active on the last second (end date now or later).
    expect((await vote(voter, { claimId: c, votes: 1 })).statusCode).toBe(200);
    t.clock.advance(2000);
    const voter2 = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const res = await vote(voter2, { claimId: c, votes: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('ROUND_NOT_ACTIVE');
  });

  it('is rate limited per user', async () => {
    const limited = await createTestApp({ env: { RL_VOTE_USER: '2/60' } });
    try {
      const m = await activeMember(limited.app, limited.db.handle.db, limited.clock.now(), 10);
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/vote',
          headers: m.auth,
          payload: { claimId: 999999, votes: 1 },
        });
        codes.push(r.statusCode);
        if (r.statusCode === 429) expect(r.headers['retry-after']).toBeDefined();
      }
      expect(codes).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('integrity under concurrency', () => {
  it('many members voting on one claim at once: totals equal a recount, silver moves exactly', async () => {
    const c = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
    const voters = await Promise.all(
      Array.from({ length: 25 }, () => activeMember(t.app, t.db.handle.db, t.clock.now(), 5)),
    );
    await settle(); // earlier tests' votes
    const hunterBefore = await earningsOf(t.db.handle.db, hunter.userId);
    const batcher = t.root.services.bounties.voteBatcher.stats;
    const before = { ...batcher };
    const results = await Promise.all(
      voters.map((v, i) => vote(v, { claimId: c, votes: (i % 5) + 1 })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(voters.map(() => 200));
    // Votes that arrived together went in statements of several (decision 0023), none failed.
    // (PGlite answers one query at a time: there the votes mostly reach the batcher apart.)
    if (inject('dbMode') === 'postgres') expect(batcher.batches).toBeGreaterThan(before.batches);
    expect(batcher.fallbacks).toBe(before.fallbacks);
    // Each answer is the voter's own balance after the vote.
    expect(results.map((r) => r.json().silver)).toEqual(voters.map((_v, i) => 5 - ((i % 5) + 1)));
    const expected = voters.reduce((sum, _v, i) => sum + (i % 5) + 1, 0);
    const [row] = await t.db.handle.db.select().from(claims).where(eq(claims.id, c));
    const [recount] = await queryRows<{ total: string | number }>(
      t.db.handle.db,
      sql`select coalesce(sum(value), 0) as total from votes where claim_id = ${c}`,
    );
    expect(row!.votes).toBe(expected);
    expect(Number(recount!.total)).toBe(expected);
    // Two settle runs at once credit every vote exactly once.
    const runs = await Promise.all([settle(), settle(), settle()]);
    expect(runs.reduce((a, r) => a + r.credited, 0)).toBe(expected);
    expect((await earningsOf(t.db.handle.db, hunter.userId)).pending).toBe(
      hunterBefore.pending + expected * DELUXE_HUNTER_MICROS_PER_SILVER,
    );
    const ledger = await ledgerRecount(t.db.handle.db);
    expect(ledger).toMatchObject({ balanceSum: 0, entrySum: 0, unbalancedTransactions: 0 });
    expect(ledger.mismatched).toEqual([]);
    for (const [i, v] of voters.entries()) {
      expect(await silverOf(t.db.handle.db, v.userId)).toEqual({
        silver: 5 - ((i % 5) + 1),
        votes: (i % 5) + 1,
      });
    }
  });

  it('duplicate votes from one member at once: exactly one counts', async () => {
    const c = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => vote(voter, { claimId: c, votes: (i % 5) + 1 })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(11);
    const n = ok[0]!.json().vote as number;
    expect(await silverOf(t.db.handle.db, voter.userId)).toEqual({ silver: 100 - n, votes: n });
    const rows = await t.db.handle.db.select().from(votes).where(eq(votes.claimId, c));
    expect(rows).toHaveLength(1);
    const [row] = await t.db.handle.db.select().from(claims).where(eq(claims.id, c));
    expect(row!.votes).toBe(n);
  });

  it('one member voting on many claims at once never overdraws', async () => {
    const ids = await Promise.all(
      Array.from({ length: 8 }, () => postClaim(t.app, t.db.handle.db, hunter, bountyId)),
    );
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const results = await Promise.all(ids.map((id) => vote(voter, { claimId: id, votes: 3 })));
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok).toBe(3);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(5);
    expect(await silverOf(t.db.handle.db, voter.userId)).toEqual({ silver: 1, votes: 9 });
  });

  it('votes racing the round-closing job: the decision counts exactly the votes that committed', async () => {
    const { bountyId: b } = await postBounty(t.app, poster, {
      title: 'Photo finish',
      seconds: 3601,
    });
    const early = await postClaim(t.app, t.db.handle.db, hunter, b);
    const late = await postClaim(t.app, t.db.handle.db, hunter, b);
    const voters = await Promise.all(
      Array.from({ length: 12 }, () => activeMember(t.app, t.db.handle.db, t.clock.now(), 5)),
    );
    // The last second of the round: votes and the closing job run together.
    t.clock.advance(3600_000);
    const svc = t.root.services.bounties;
    const [results] = await Promise.all([
      Promise.all(voters.map((v) => vote(v, { claimId: late, votes: 1 }))),
      (async () => {
        t.clock.advance(1500);
        await svc.closeDueRounds();
      })(),
    ]);
    const ok = results.filter((r) => r.statusCode === 200).length;
    expect(ok + results.filter((r) => r.statusCode === 409).length).toBe(voters.length);
    const [row] = await t.db.handle.db.select().from(claims).where(eq(claims.id, late));
    expect(row!.votes).toBe(ok);
    const bounty = (await t.app.inject({ method: 'GET', url: `/bounty/${b}` })).json();
    expect(bounty.status).toBe('decided');
    expect(bounty.winnerClaimId).toBe(ok > 0 ? late : early);
  });

  it('every balance is non-negative and equals its ledger', async () => {
    await settle();
    const neg = await queryRows<{ id: number }>(
      t.db.handle.db,
      sql`select id from users where silver < 0`,
    );
    expect(neg).toEqual([]);
    // Each user's ledger ends at its balance (fixtures set the starting balance directly).
    const mismatched = await queryRows<{ id: number }>(
      t.db.handle.db,
      sql`select u.id from users u
        join lateral (select balance_after from silver_ledger l where l.user_id = u.id
          order by l.id desc limit 1) last on true
        where last.balance_after <> u.silver`,
    );
    expect(mismatched).toEqual([]);
    const voteTotals = await queryRows<{ id: number }>(
      t.db.handle.db,
      sql`select c.id from claims c
        where c.votes <> (select coalesce(sum(v.value), 0) from votes v where v.claim_id = c.id)`,
    );
    expect(voteTotals).toEqual([]);
    const userVotes = await queryRows<{ id: number }>(
      t.db.handle.db,
      sql`select u.id from users u
        where u.votes <> (select coalesce(sum(v.value), 0) from votes v where v.user_id = u.id)`,
    );
    expect(userVotes).toEqual([]);
  });
});
