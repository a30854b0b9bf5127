/**
 * Payout test support: hunters who qualify for payouts (approved identity, legal name, address,
 * SSN and bank given through the API) and earnings made the way users make them (votes by
 * members on the hunter's claim, settled by the earnings job).
 */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../src/db/schema';
import type { TestApp } from './helper';
import { signUp } from './helper';
import { activeMember, postBounty, postClaim, type Session } from './factories';

export const BANK = {
  name: 'First Test Bank',
  accountType: 'checking',
  routingNumber: '021000021',
  accountNumber: '000123456789',
} as const;

/** A hunter with everything payouts need; `skip` leaves some requirements out. */
export async function payableHunter(
  t: TestApp,
  opts: {
    skip?: ('identity' | 'name' | 'address' | 'ssn' | 'bank')[];
    accountType?: 'checking' | 'savings';
  } = {},
): Promise<Session> {
  const s = await signUp(t.app, { hunter: true });
  const skip = new Set(opts.skip ?? []);
  const put = async (url: string, payload?: object) => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: s.auth,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
  };
  if (!skip.has('name'))
    await put('/user/name', { firstName: 'Ada', lastName: `Hunter${s.userId}` });
  if (!skip.has('address'))
    await put('/user/address', {
      street: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
  if (!skip.has('ssn'))
    await put(`/user/ssn/123-45-${String(1000 + (s.userId % 9000))}`.replace(/-/g, ''));
  if (!skip.has('bank'))
    await put('/user/bank', { ...BANK, accountType: opts.accountType ?? 'checking' });
  if (!skip.has('identity'))
    await t.db.handle.db
      .update(users)
      .set({ identityStatus: 'approved' })
      .where(eq(users.id, s.userId));
  return s;
}

/**
 * `silver` votes by Deluxe members on a new claim of the hunter, settled: the hunter's pending
 * balance rises by silver × 91,960 micro-dollars. Returns the claim.
 */
export async function earnOnNewClaim(
  t: TestApp,
  hunter: Session,
  poster: Session,
  silver: number,
): Promise<number> {
  const { bountyId } = await postBounty(t.app, poster, { title: 'Payday', seconds: 30 * 86400 });
  const claimId = await postClaim(t.app, t.db.handle.db, hunter, bountyId);
  let left = silver;
  while (left > 0) {
    const n = Math.min(5, left);
    const voter = await activeMember(t.app, t.db.handle.db, t.clock.now(), n);
    const res = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter.auth,
      payload: { claimId, votes: n },
    });
    expect(res.statusCode, res.body).toBe(200);
    left -= n;
  }
  await t.root.services.bounties.settleEarnings();
  return claimId;
}
