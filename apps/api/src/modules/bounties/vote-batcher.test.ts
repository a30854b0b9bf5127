/**
 * Votes in batches (decision 0023): a statement of many votes applies each vote's rules on its
 * own, and a batch that fails as a whole is cast again vote by vote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { claims, users } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import {
  activeMember,
  postBounty,
  postClaim,
  silverOf,
  type Session,
} from '../../../test/factories';
import { VoteBatcher } from './vote-batcher';
import { castVote, castVotes, type VoteToCast } from './votes.repository';

let t: TestApp;
let hunter: Session;
let bountyId: number;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
  const poster = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
  hunter = await signUp(t.app, { hunter: true });
  bountyId = (await postBounty(t.app, poster, { title: 'Batched votes' })).bountyId;
});
afterAll(() => t.close());

const db = () => t.db.handle.db;
const member = (silver: number) => activeMember(t.app, db(), t.clock.now(), silver);
const votesOn = async (claimId: number) =>
  (await db().select({ votes: claims.votes }).from(claims).where(eq(claims.id, claimId)))[0]!.votes;
const ledgerOf = (userId: number) =>
  queryRows<{ delta: number; balance_after: number; reason: string; ref_id: number }>(
    db(),
    sql`select delta, balance_after, reason, ref_id from silver_ledger where user_id = ${userId} order by id`,
  );
const pendingOn = (claimId: number) =>
  queryRows<{ user_id: number; amount: number }>(
    db(),
    sql`select user_id, amount from vote_earnings_pending where claim_id = ${claimId} order by id`,
  );

describe('castVotes: many votes in one statement', () => {
  it('casts the votes whose rules hold and leaves the others out, each as castVote would', async () => {
    const [c1, c2, hidden] = [
      await postClaim(t.app, db(), hunter, bountyId),
      await postClaim(t.app, db(), hunter, bountyId),
      await postClaim(t.app, db(), hunter, bountyId),
    ];
    await db().update(claims).set({ hiddenAt: t.clock.now() }).where(eq(claims.id, hidden!));
    const [a, b, poor, onHidden, voted] = await Promise.all([
      member(10),
      member(10),
      member(2),
      member(10),
      member(10),
    ]);
    const inactive = await signUp(t.app);
    await db().update(users).set({ silver: 10 }).where(eq(users.id, inactive.userId));
    const now = t.clock.now();
    expect(await castVote(db(), { claimId: c1!, userId: voted!.userId, n: 1, now })).toBeDefined();
    const batch: VoteToCast[] = [
      { claimId: c1!, userId: a!.userId, n: 3, now },
      { claimId: c1!, userId: poor!.userId, n: 3, now }, // 2 silver: not enough
      { claimId: c2!, userId: b!.userId, n: 5, now },
      { claimId: hidden!, userId: onHidden!.userId, n: 1, now }, // hidden claim
      { claimId: c1!, userId: voted!.userId, n: 2, now }, // voted on c1 already
      { claimId: c2!, userId: inactive.userId, n: 1, now }, // no membership
      { claimId: c2!, userId: hunter.userId, n: 1, now }, // the claim's own hunter
    ];
    const answers = await castVotes(db(), batch);
    expect(answers.map((x) => (x ? x.silver : null))).toEqual([7, null, 5, null, null, null, null]);
    expect(answers[0]).toMatchObject({ votes: 4, bountyId, roundNumber: 1 });
    expect(answers[2]).toMatchObject({ votes: 5, bountyId, roundNumber: 1 });
    expect(await votesOn(c1!)).toBe(4);
    expect(await votesOn(c2!)).toBe(5);
    expect(await votesOn(hidden!)).toBe(0);
    expect(await silverOf(db(), a!.userId)).toEqual({ silver: 7, votes: 3 });
    expect(await silverOf(db(), poor!.userId)).toEqual({ silver: 2, votes: 0 });
    expect(await silverOf(db(), voted!.userId)).toEqual({ silver: 9, votes: 1 });
    expect(await silverOf(db(), inactive.userId)).toEqual({ silver: 10, votes: 0 });
    expect(await ledgerOf(a!.userId)).toEqual([
      { delta: -3, balance_after: 7, reason: 'vote', ref_id: c1 },
    ]);
    expect(await ledgerOf(poor!.userId)).toEqual([]);
    expect(await pendingOn(c2!)).toEqual([{ user_id: hunter.userId, amount: 5 }]);
    expect((await pendingOn(c1!)).map((r) => r.amount)).toEqual([1, 3]);
  });

  it('one voter twice in one statement (never sent by the batcher): one vote counts, in full', async () => {
    const c = await postClaim(t.app, db(), hunter, bountyId);
    const m = await member(10);
    const now = t.clock.now();
    const answers = await castVotes(db(), [
      { claimId: c, userId: m.userId, n: 1, now },
      { claimId: c, userId: m.userId, n: 2, now },
    ]);
    const counted = answers.flatMap((x, i) => (x ? [i + 1] : []));
    expect(counted).toHaveLength(1);
    const n = counted[0]!;
    expect(await silverOf(db(), m.userId)).toEqual({ silver: 10 - n, votes: n });
    expect(await votesOn(c)).toBe(n);
    expect(await ledgerOf(m.userId)).toEqual([
      { delta: -n, balance_after: 10 - n, reason: 'vote', ref_id: c },
    ]);
  });
});

describe('VoteBatcher', () => {
  it('votes that arrive while a statement runs go together in the next one', async () => {
    const c = await postClaim(t.app, db(), hunter, bountyId);
    const voters = await Promise.all(Array.from({ length: 6 }, () => member(5)));
    const batcher = new VoteBatcher(db(), { warn: () => undefined });
    const now = t.clock.now();
    // The first goes alone at once; the five that arrive meanwhile go in one statement.
    const answers = await Promise.all(
      voters.map((v) => batcher.cast({ claimId: c, userId: v.userId, n: 2, now })),
    );
    expect(answers.map((x) => x?.silver)).toEqual(voters.map(() => 3));
    expect(batcher.stats).toEqual({ batches: 1, batchedVotes: 5, fallbacks: 0 });
    expect(await votesOn(c)).toBe(12);
  });

  it("a voter's second vote waits for the next statement", async () => {
    const [c1, c2] = [
      await postClaim(t.app, db(), hunter, bountyId),
      await postClaim(t.app, db(), hunter, bountyId),
    ];
    const [first, m, other] = await Promise.all([member(5), member(5), member(5)]);
    const batcher = new VoteBatcher(db(), { warn: () => undefined });
    const now = t.clock.now();
    const answers = await Promise.all([
      batcher.cast({ claimId: c1!, userId: first!.userId, n: 1, now }),
      batcher.cast({ claimId: c1!, userId: m!.userId, n: 2, now }),
      batcher.cast({ claimId: c2!, userId: m!.userId, n: 2, now }),
      batcher.cast({ claimId: c2!, userId: other!.userId, n: 1, now }),
    ]);
    expect(answers.map((x) => x?.silver)).toEqual([4, 3, 1, 4]);
    expect(await silverOf(db(), m!.userId)).toEqual({ silver: 1, votes: 4 });
  });

  it('a batch that fails as a whole is cast again vote by vote, each with its own answer', async () => {
    const c = await postClaim(t.app, db(), hunter, bountyId);
    const [first, a, b] = await Promise.all([member(5), member(5), member(5)]);
    const warnings: string[] = [];
    const batcher = new VoteBatcher(
      db(),
      { warn: (_o: unknown, msg?: string) => void warnings.push(msg ?? '') },
      {
        one: castVote,
        many: () => Promise.reject(new Error('deadlock detected')),
      },
    );
    const now = t.clock.now();
    await castVote(db(), { claimId: c, userId: b!.userId, n: 1, now });
    const results = await Promise.allSettled([
      batcher.cast({ claimId: c, userId: first!.userId, n: 1, now }),
      batcher.cast({ claimId: c, userId: a!.userId, n: 2, now }),
      batcher.cast({ claimId: c, userId: b!.userId, n: 2, now }), // voted already
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { silver: 4 } });
    expect(results[1]).toMatchObject({ status: 'fulfilled', value: { silver: 3 } });
    // Alone, a second vote on the claim is the unique index's error (the API's 409).
    expect(results[2]!.status).toBe('rejected');
    expect(batcher.stats).toEqual({ batches: 0, batchedVotes: 0, fallbacks: 1 });
    expect(warnings).toEqual(['votes: a batch failed, casting its votes one by one']);
    expect(await votesOn(c)).toBe(4);
  });
});
