import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { BOUNTY_MSG } from '@bountyhunt/shared/bounties';
import { roundStatus, ROUND_STATUS } from '@bountyhunt/shared/format';
import { rounds, silverLedger } from '../../db/schema';
import { queryRows } from '../../db/client';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import {
  activeMember,
  DELUXE_HUNTER_MICROS_PER_SILVER,
  earningsOf,
  postBounty,
  postClaim,
  silverOf,
  type Session,
} from '../../../test/factories';
import { CLOSE_ROUNDS_JOB } from './bounties.jobs';

let t: TestApp;
let poster: Session;
let hunterA: Session;
let hunterB: Session;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600', RL_VOTE_USER: '1000/60' } });
  poster = await activeMember(t.app, t.db.handle.db, t.clock.now(), 1000);
  hunterA = await signUp(t.app, { hunter: true });
  hunterB = await signUp(t.app, { hunter: true });
});
afterAll(() => t.close());

const HOUR = 3600_000;
const runJob = () => t.runJob(CLOSE_ROUNDS_JOB);
const getBounty = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/bounty/${id}` })).json();
const vote = (s: Session, claimId: number, votes: number) =>
  t.app.inject({ method: 'POST', url: '/vote', headers: s.auth, payload: { claimId, votes } });
const openRound = (s: Session, id: number, body: object) =>
  t.app.inject({ method: 'POST', url: `/bounty/${id}/round`, headers: s.auth, payload: body });

describe('the close-rounds job', () => {
  it('is registered as a scheduled job', () => {
    const def = t.root.jobDefinitions.find((d) => d.name === CLOSE_ROUNDS_JOB);
    expect(def?.schedule).toBe('* * * * *');
  });

  it('decides the bounty when its last round ends: rank 1 wins the amount', async () => {
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Prize',
      seconds: 2 * 3600,
      amount: 50,
    });
    t.clock.advance(1000);
    await postClaim(t.app, t.db.handle.db, hunterA, bountyId);
    t.clock.advance(1000);
    const b = await postClaim(t.app, t.db.handle.db, hunterB, bountyId);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    expect((await vote(voter, b, 2)).statusCode).toBe(200);

    // Before the end nothing happens.
    await runJob();
    expect((await getBounty(bountyId)).status).toBe('open');

    const before = await earningsOf(t.db.handle.db, hunterB.userId);
    t.clock.advance(2 * HOUR);
    const round = (await getBounty(bountyId)).rounds[0];
    expect(roundStatus(round, t.clock.now())).toBe(ROUND_STATUS.inactive);
    await runJob();
    const decided = await getBounty(bountyId);
    expect(decided).toMatchObject({ status: 'decided', winnerClaimId: b, amount: 50 });
    // The prize is money: the poster's 50 Deluxe silver at the creator share, pending.
    const prize = 50 * DELUXE_HUNTER_MICROS_PER_SILVER;
    expect((await earningsOf(t.db.handle.db, hunterB.userId)).pending).toBe(before.pending + prize);
    const win = await queryRows<{ user_id: number; micros: string; bounty_id: number }>(
      t.db.handle.db,
      sql`select user_id, micros::text, bounty_id from hunter_earnings where source = 'prize'`,
    );
    expect(win).toEqual([{ user_id: hunterB.userId, micros: String(prize), bounty_id: bountyId }]);

    // Running again changes nothing (each round is closed once).
    await runJob();
    expect((await earningsOf(t.db.handle.db, hunterB.userId)).pending).toBe(before.pending + prize);
    const [r] = await t.db.handle.db.select().from(rounds).where(eq(rounds.bountyId, bountyId));
    expect(r!.closedAt).not.toBeNull();
  });

  it('gives a tie to the earlier claim', async () => {
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Tie',
      seconds: 7200,
      amount: 5,
    });
    t.clock.advance(1000);
    const first = await postClaim(t.app, t.db.handle.db, hunterA, bountyId);
    t.clock.advance(1000);
    const second = await postClaim(t.app, t.db.handle.db, hunterB, bountyId);
    const v1 = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    const v2 = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    await vote(v1, second, 3);
    await vote(v2, first, 3);
    t.clock.advance(3 * HOUR);
    await runJob();
    expect(await getBounty(bountyId)).toMatchObject({ status: 'decided', winnerClaimId: first });
  });

  it('returns the amount to the poster when nobody claimed it', async () => {
    const before = (await silverOf(t.db.handle.db, poster.userId)).silver;
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Lonely',
      seconds: 7200,
      amount: 30,
    });
    expect((await silverOf(t.db.handle.db, poster.userId)).silver).toBe(before - 30);
    t.clock.advance(3 * HOUR);
    await runJob();
    expect(await getBounty(bountyId)).toMatchObject({ status: 'decided', winnerClaimId: null });
    expect((await silverOf(t.db.handle.db, poster.userId)).silver).toBe(before);
    const refund = await t.db.handle.db
      .select()
      .from(silverLedger)
      .where(and(eq(silverLedger.refId, bountyId), eq(silverLedger.userId, poster.userId)));
    expect(refund.map((l) => l.reason).sort()).toEqual(['bounty_hold', 'bounty_refund']);
  });

  it('after the close no claim or vote is accepted', async () => {
    const { bountyId } = await postBounty(t.app, poster, { title: 'Closed', seconds: 7200 });
    const c = await postClaim(t.app, t.db.handle.db, hunterA, bountyId);
    t.clock.advance(3 * HOUR);
    await runJob();
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    expect((await vote(voter, c, 1)).statusCode).toBe(409);
  });
});

describe('POST /bounty/{id}/round', () => {
  it('lets only the poster open a further round, only after the current one ended', async () => {
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Rounds',
      seconds: 7200,
      amount: 10,
    });
    const early = await openRound(poster, bountyId, { seconds: 7200 });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: BOUNTY_MSG.roundStillActive, code: 'ROUND_ACTIVE' });
    t.clock.advance(3 * HOUR);
    const other = await activeMember(t.app, t.db.handle.db, t.clock.now(), 10);
    expect((await openRound(other, bountyId, { seconds: 7200 })).statusCode).toBe(403);
    expect((await openRound(hunterA, bountyId, { seconds: 7200 })).statusCode).toBe(403);
    expect((await openRound(poster, bountyId, { seconds: 60 })).json().message).toBe(
      'Invalid value for hours remaining',
    );
    expect((await openRound(poster, 999999, { seconds: 7200 })).statusCode).toBe(404);

    // Opened before the job ran: round 1 is no longer the last, so the amount carries over.
    const res = await openRound(poster, bountyId, { seconds: 7200, amount: 5 });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ roundCount: 2, amount: 15, status: 'open' });
    expect(b.rounds.map((r: { roundId: number }) => r.roundId)).toEqual([1, 2]);
    await runJob();
    expect((await getBounty(bountyId)).status).toBe('open');

    // Claims now go into round 2 only.
    const c = await postClaim(t.app, t.db.handle.db, hunterA, bountyId, 2);
    await expect(postClaim(t.app, t.db.handle.db, hunterA, bountyId, 1)).rejects.toThrow(/409/);
    const before = (await earningsOf(t.db.handle.db, hunterA.userId)).pending;
    t.clock.advance(3 * HOUR);
    await runJob();
    expect(await getBounty(bountyId)).toMatchObject({ status: 'decided', winnerClaimId: c });
    expect((await earningsOf(t.db.handle.db, hunterA.userId)).pending).toBe(
      before + 15 * DELUXE_HUNTER_MICROS_PER_SILVER,
    );
  });

  it('reopens a decided bounty with a new prize', async () => {
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Again',
      seconds: 7200,
      amount: 4,
    });
    t.clock.advance(3 * HOUR);
    await runJob();
    expect((await getBounty(bountyId)).status).toBe('decided');
    const silver = (await silverOf(t.db.handle.db, poster.userId)).silver;
    const res = await openRound(poster, bountyId, { seconds: 7200, amount: 7 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      roundCount: 2,
      amount: 7,
      status: 'open',
      winnerClaimId: null,
    });
    expect((await silverOf(t.db.handle.db, poster.userId)).silver).toBe(silver - 7);
    const tooMuch = await openRound(poster, bountyId, { seconds: 7200, amount: 1_000_000 });
    expect(tooMuch.statusCode).toBe(409); // round 2 is active
  });

  it('is 402 when the poster lacks the new amount', async () => {
    const poor = await activeMember(t.app, t.db.handle.db, t.clock.now(), 0);
    const { bountyId } = await postBounty(t.app, poor, { title: 'Poor', seconds: 7200 });
    t.clock.advance(3 * HOUR);
    const res = await openRound(poor, bountyId, { seconds: 7200, amount: 1 });
    expect(res.statusCode).toBe(402);
    expect((await getBounty(bountyId)).roundCount).toBe(1);
  });
});
