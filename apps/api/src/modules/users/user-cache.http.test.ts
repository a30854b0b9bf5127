/**
 * The user answer cache through the API (USER_CACHE_MS on, decision 0022): GET /user is served
 * from it, and every way the API changes what that answer says shows on the very next GET /user,
 * each checked after the answer was cached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { activeMember, postBounty, postClaim, TEST_CARD, voteOn } from '../../../test/factories';
import { enrolledAdmin } from '../../../test/admin-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { USER_CACHE_MS: '10000' } });
});
afterAll(() => t.close());

type Auth = { authorization: string };
interface Me {
  user: { silver: number; votes: number; handle: string | null; membership: number };
  hunter: { stagename: string | null } | null;
}

async function me(auth: Auth): Promise<Me> {
  const res = await t.app.inject({ method: 'GET', url: '/user', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function call(method: 'PUT' | 'POST', url: string, auth: Auth, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: auth, payload: payload as object });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
}

const db = () => t.root.ctx.db;

describe('user answer cache (USER_CACHE_MS)', () => {
  it('answers GET /user from what it read, until the user is changed', async () => {
    const m = await activeMember(t.app, db(), t.clock.now(), 40);
    expect((await me(m.auth)).user.silver).toBe(40);
    // Behind the API's back (nobody is told): the kept answer stands.
    await queryRows(db(), sql`update users set silver = 7 where id = ${m.userId}`);
    expect((await me(m.auth)).user.silver).toBe(40);
    t.root.services.users.changed([m.userId]);
    expect((await me(m.auth)).user.silver).toBe(7);
  });

  it('a vote shows its silver and votes at once', async () => {
    const poster = await activeMember(t.app, db(), t.clock.now(), 50);
    const voter = await activeMember(t.app, db(), t.clock.now(), 30);
    const hunter = await signUp(t.app, { hunter: true });
    const { bountyId } = await postBounty(t.app, poster);
    const claimId = await postClaim(t.app, db(), hunter, bountyId);
    expect((await me(voter.auth)).user).toMatchObject({ silver: 30, votes: 0 });
    await voteOn(t.app, voter, claimId, 4);
    expect((await me(voter.auth)).user).toMatchObject({ silver: 26, votes: 4 });
  });

  it('a bounty posted with silver, and another round, show the silver held at once', async () => {
    const poster = await activeMember(t.app, db(), t.clock.now(), 50);
    expect((await me(poster.auth)).user.silver).toBe(50);
    const { bountyId } = await postBounty(t.app, poster, { amount: 20, seconds: 7200 });
    expect((await me(poster.auth)).user.silver).toBe(30);
    t.clock.advance(7201_000);
    await call('POST', `/bounty/${bountyId}/round`, poster.auth, { seconds: 7200, amount: 5 });
    expect((await me(poster.auth)).user.silver).toBe(25);
  });

  it('a bounty decided with no claim gives the poster their silver back at once', async () => {
    const poster = await activeMember(t.app, db(), t.clock.now(), 50);
    await postBounty(t.app, poster, { amount: 20, seconds: 7200 });
    expect((await me(poster.auth)).user.silver).toBe(30);
    t.clock.advance(7201_000);
    await t.root.services.bounties.closeDueRounds();
    expect((await me(poster.auth)).user.silver).toBe(50);
  });

  it('a membership bought and account settings show at once', async () => {
    const m = await signUp(t.app);
    expect((await me(m.auth)).user).toMatchObject({ silver: 0, handle: null });
    await call('POST', '/user/membership', m.auth, TEST_CARD);
    expect((await me(m.auth)).user).toMatchObject({ silver: 200, membership: 2 });
    await call('PUT', '/user/handle', m.auth, { handle: `Ada${m.userId}` });
    expect((await me(m.auth)).user.handle).toBe(`Ada${m.userId}`);
  });

  it("a hunter's stage name shows at once", async () => {
    const h = await signUp(t.app, { hunter: true });
    expect((await me(h.auth)).hunter?.stagename).toBeNull();
    await call('PUT', '/hunter/stagename', h.auth, { stagename: 'The Hunter' });
    expect((await me(h.auth)).hunter?.stagename).toBe('The Hunter');
  });

  it("an admin's silver grant shows on the member's next GET /user", async () => {
    const admin = await enrolledAdmin(t);
    const m = await activeMember(t.app, db(), t.clock.now(), 10);
    expect((await me(m.auth)).user.silver).toBe(10);
    await call('POST', `/admin/users/${m.userId}/silver`, admin.auth, {
      amount: 25,
      reason: 'cache test',
    });
    expect((await me(m.auth)).user.silver).toBe(35);
  });
});
