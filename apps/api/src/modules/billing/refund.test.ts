import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { enrolledAdmin } from '../../../test/admin-support';
import {
  activeMember,
  earningsOf,
  postBounty,
  postClaim,
  silverOf,
  TEST_CARD,
  type Session,
} from '../../../test/factories';
import { ledgerRecount } from '../payouts/ledger.service';

const CARD = TEST_CARD;
/** A Standard member's silver earns a hunter $6.99 / 50 × 0.80 = 111,840 micro-dollars. */
const STANDARD_HUNTER = 111_840;

let t: TestApp;
let admin: Awaited<ReturnType<typeof enrolledAdmin>>;
let poster: Session;
beforeAll(async () => {
  t = await createTestApp({ env: { RL_REGISTER_IP: '1000/3600' } });
  admin = await enrolledAdmin(t);
  poster = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100);
});
afterAll(() => t.close());

async function standardMember(): Promise<Session> {
  const m = await signUp(t.app);
  await t.app.inject({ method: 'PUT', url: '/user/membership/0', headers: m.auth });
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/membership',
    headers: m.auth,
    payload: CARD,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().silver).toBe(50);
  return m;
}

async function claimOf(hunter: Session): Promise<number> {
  const { bountyId } = await postBounty(t.app, poster, { title: 'Refund me' });
  return postClaim(t.app, t.db.handle.db, hunter, bountyId);
}

const detail = (userId: number) =>
  t.app.inject({ method: 'GET', url: `/admin/users/${userId}`, headers: admin.auth });
const refund = (userId: number, chargeId: number) =>
  t.app.inject({
    method: 'POST',
    url: `/admin/users/${userId}/refund`,
    headers: admin.auth,
    payload: { chargeId, reason: 'Asked for a refund the same day' },
  });

describe('POST /admin/users/{userId}/refund', () => {
  it('gives the payment back, takes back the silver left and the hunters’ unpaid earnings from the spent part', async () => {
    const member = await standardMember();
    const [hunterA, hunterB] = [
      await signUp(t.app, { hunter: true }),
      await signUp(t.app, { hunter: true }),
    ];
    for (const [h, n] of [
      [hunterA, 5],
      [hunterB, 3],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/vote',
        headers: member.auth,
        payload: { claimId: await claimOf(h), votes: n },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Hunter B's earnings are settled before the refund; A's are still queued: both come back.
    await t.root.services.bounties.settleEarnings();
    expect((await earningsOf(t.db.handle.db, hunterB.userId)).pending).toBe(3 * STANDARD_HUNTER);

    const payments = (await detail(member.userId)).json().payments;
    expect(payments).toEqual([
      expect.objectContaining({
        kind: 'membership_start',
        amountCents: 699,
        refundable: true,
        refunded: false,
      }),
    ]);
    const res = await refund(member.userId, payments[0].chargeId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      chargeId: payments[0].chargeId,
      refundedCents: 699,
      silverTaken: 42,
      earningsReversedCents: Math.floor((8 * STANDARD_HUNTER) / 10_000),
    });
    expect((await silverOf(t.db.handle.db, member.userId)).silver).toBe(0);
    expect(await earningsOf(t.db.handle.db, hunterA.userId)).toEqual({ pending: 0, available: 0 });
    expect(await earningsOf(t.db.handle.db, hunterB.userId)).toEqual({ pending: 0, available: 0 });
    const ledger = await ledgerRecount(t.db.handle.db);
    expect(ledger.mismatched).toEqual([]);
    expect(ledger).toMatchObject({ balanceSum: 0, unbalancedTransactions: 0 });

    const after = (await detail(member.userId)).json().payments;
    expect(after.map((p: { kind: string; refunded: boolean }) => [p.kind, p.refunded])).toEqual([
      ['refund', false],
      ['membership_start', true],
    ]);
    expect((await refund(member.userId, payments[0].chargeId)).statusCode).toBe(409);
    const audit = await t.app.inject({
      method: 'GET',
      url: `/admin/audit?action=user.refund&targetId=${member.userId}`,
      headers: admin.auth,
    });
    expect(audit.json()[0].after).toMatchObject({ refundedCents: 699, silverTaken: 42 });
  });

  it('answers 404 for another user’s payment and 409 for a refund row; members get 403', async () => {
    const a = await standardMember();
    const b = await standardMember();
    const bCharge = (await detail(b.userId)).json().payments[0].chargeId;
    expect((await refund(a.userId, bCharge)).statusCode).toBe(404);
    const member = await t.app.inject({
      method: 'POST',
      url: `/admin/users/${b.userId}/refund`,
      headers: a.auth,
      payload: { chargeId: bCharge, reason: 'x' },
    });
    expect(member.statusCode).toBe(403);
  });
});
