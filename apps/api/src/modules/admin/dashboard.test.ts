import { PLANS } from '@bountyhunt/shared/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolledAdmin } from '../../../test/admin-support';
import { activeMember, postBounty, postClaim } from '../../../test/factories';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';

describe('GET /admin/dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts users, running memberships and their MRR, today’s claims and votes, and jobs', async () => {
    const admin = await enrolledAdmin(t);
    const get = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/admin/dashboard',
        headers: admin.auth,
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const before = await get();
    const db = t.db.handle.db;
    const poster = await activeMember(t.app, db, t.clock.now(), 50);
    const voter = await activeMember(t.app, db, t.clock.now(), 50);
    const hunter = await signUp(t.app, { hunter: true });
    const { bountyId } = await postBounty(t.app, poster);
    const claimId = await postClaim(t.app, db, hunter, bountyId);
    const vote = await t.app.inject({
      method: 'POST',
      url: '/vote',
      headers: voter.auth,
      payload: { claimId, votes: 3 },
    });
    expect(vote.statusCode).toBe(200);
    const after = await get();
    // Three users and an admin more; two memberships on plan 2 (the factory's plan).
    expect(after.users - before.users).toBe(3);
    expect(after.activeMembers - before.activeMembers).toBe(2);
    expect(after.mrrCents - before.mrrCents).toBe(2 * PLANS[2]!.priceCents);
    expect(after.claimsToday - before.claimsToday).toBe(1);
    expect(after.votesToday - before.votesToday).toBe(1);
    expect(after).toMatchObject({
      openReports: expect.any(Number),
      pendingIdentities: expect.any(Number),
      jobs: { byState: expect.any(Object), failed: expect.any(Array) },
    });
    // Tomorrow, today's counts start again.
    t.clock.advance(24 * 3600_000);
    const tomorrow = await get();
    expect(tomorrow.claimsToday).toBe(0);
    expect(tomorrow.votesToday).toBe(0);
  });
});
