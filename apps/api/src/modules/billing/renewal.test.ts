/** The membership lifecycle on a controllable clock: the renewal job is run by hand, no sleeping. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { charges, users } from '../../db/schema';
import { ManualClock } from '../../lib/clock';
import { SANDBOX_CARDS } from '../../payments/sandbox-gateway';
import { PASSWORD, createTestApp, signUp, type TestApp } from '../../../test/helper';
import { MAX_RENEWAL_ATTEMPTS, RENEW_JOB, addMonths } from './membership-terms';

const DAY = 24 * 3600 * 1000;
const T0 = new Date('2026-01-31T10:00:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(T0) });
});
afterAll(() => t.close());

const CARD = {
  number: '4242424242424242',
  cvv: '123',
  month: '12',
  year: '2035',
  name: 'A B',
  zip: '1',
};

type Auth = { authorization: string };

const runJob = () => t.runJob(RENEW_JOB);
const clock = () => t.clock;

async function member(plan?: number): Promise<{ auth: Auth; userId: number; email: string }> {
  const m = await signUp(t.app);
  if (plan !== undefined)
    await t.app.inject({ method: 'PUT', url: `/user/membership/${plan}`, headers: m.auth });
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/membership',
    headers: m.auth,
    payload: CARD,
  });
  expect(res.statusCode).toBe(200);
  return m;
}

async function row(userId: number) {
  const [u] = await t.db.handle.db.select().from(users).where(eq(users.id, userId));
  return u!;
}

async function chargeList(userId: number) {
  return t.db.handle.db
    .select()
    .from(charges)
    .where(eq(charges.userId, userId))
    .orderBy(charges.id);
}

function mailsTo(email: string): string[] {
  const dir = path.join(t.config.dataDir, 'mail');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .filter((m) => m.includes(email));
}

async function setCard(auth: Auth, number: string) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/user/card',
    headers: auth,
    payload: { ...CARD, number },
  });
  expect(res.statusCode).toBe(204);
}

describe('addMonths', () => {
  it('moves one calendar month, clamped to the month end', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe(
      '2028-02-29T10:00:00.000Z',
    );
    expect(addMonths(new Date('2026-12-15T00:00:00Z'), 1).toISOString()).toBe(
      '2027-01-15T00:00:00.000Z',
    );
  });
});

describe('monthly renewal job', () => {
  it('is a scheduled job definition', () => {
    const def = t.root.jobDefinitions.find((d) => d.name === RENEW_JOB);
    expect(def?.schedule).toBe('*/15 * * * *');
  });

  it('renews a day before the end: charges, extends by a month from the end and credits silver, once', async () => {
    clock().set(T0);
    const m = await member(1);
    const end = (await row(m.userId)).active!;
    expect(end.toISOString()).toBe('2026-02-28T10:00:00.000Z');

    clock().set(new Date(end.getTime() - DAY - 60_000));
    await runJob();
    expect(await chargeList(m.userId)).toHaveLength(1); // not yet due

    clock().set(new Date(end.getTime() - DAY + 60_000));
    await runJob();
    await runJob(); // a second run in the same window charges nothing more
    const after = await row(m.userId);
    expect(after.active!.toISOString()).toBe('2026-03-28T10:00:00.000Z');
    expect(after.silver).toBe(200);
    const list = await chargeList(m.userId);
    expect(list.map((c) => [c.kind, c.amountCents, c.status])).toEqual([
      ['membership_start', 1549, 'succeeded'],
      ['renewal', 1549, 'succeeded'],
    ]);
    const silver = await t.app.inject({ method: 'GET', url: '/user/silver', headers: m.auth });
    expect(silver.json().history.map((h: { reason: string }) => h.reason)).toEqual([
      'renewal',
      'membership',
    ]);
  });

  it('charges once when renewal runs overlap', async () => {
    clock().set(T0);
    const a = await member(0);
    const b = await member(1);
    clock().set(new Date((await row(a.userId)).active!.getTime() - 3600_000));
    await Promise.all([runJob(), runJob(), runJob()]);
    for (const m of [a, b]) {
      const list = await chargeList(m.userId);
      expect(list.map((c) => c.kind)).toEqual(['membership_start', 'renewal']);
    }
    expect((await row(a.userId)).silver).toBe(100);
    expect((await row(b.userId)).silver).toBe(200);
  });

  it('applies a plan change made while active at the next renewal', async () => {
    clock().set(T0);
    const m = await member(2);
    const res = await t.app.inject({ method: 'PUT', url: '/user/membership/0', headers: m.auth });
    expect(res.json().membership).toBe(2); // unchanged until the renewal
    const summary = await t.app.inject({ method: 'GET', url: '/user/membership', headers: m.auth });
    expect(summary.json()).toMatchObject({ membership: 2, pendingMembership: 0 });
    clock().set(new Date((await row(m.userId)).active!.getTime() - 3600_000));
    await runJob();
    const after = await row(m.userId);
    expect(after).toMatchObject({ membership: 0, pendingMembership: null, silver: 250 });
    expect((await chargeList(m.userId)).map((c) => c.amountCents)).toEqual([2299, 699]);
  });

  it('retries a declined renewal over days, then lets the membership lapse and mails the member', async () => {
    clock().set(T0);
    const m = await member(2);
    await setCard(m.auth, SANDBOX_CARDS.declinesCharges); // saved fine, charges decline
    const end = (await row(m.userId)).active!;

    clock().set(new Date(end.getTime() - DAY + 1000));
    await runJob();
    let u = await row(m.userId);
    expect(u.renewalFailures).toBe(1);
    expect(u.active!.getTime()).toBe(end.getTime()); // still a member until the end
    expect(mailsTo(m.email).join()).toContain('Your BountyHunt payment was declined');

    await runJob(); // retry not due yet
    expect(await chargeList(m.userId)).toHaveLength(2);

    const attempts = [1];
    for (let i = 2; i <= MAX_RENEWAL_ATTEMPTS; i++) {
      clock().set((await row(m.userId)).nextRenewalAttemptAt!);
      await runJob();
      attempts.push((await row(m.userId)).renewalFailures);
    }
    expect(attempts).toEqual([1, 2, 3, 4]);
    u = await row(m.userId);
    expect(u.nextRenewalAttemptAt).toBeNull();
    expect(u.active!.getTime()).toBe(end.getTime());
    expect(clock().now().getTime()).toBeGreaterThan(end.getTime()); // lapsed
    expect(clock().now().getTime() - end.getTime()).toBeLessThan(7 * DAY);
    const list = await chargeList(m.userId);
    expect(list.map((c) => c.status)).toEqual([
      'succeeded',
      'declined',
      'declined',
      'declined',
      'declined',
    ]);
    expect(new Set(list.map((c) => c.idempotencyKey)).size).toBe(5);
    const mails = mailsTo(m.email);
    expect(mails).toHaveLength(2);
    expect(mails.join()).toContain('Your BountyHunt membership has ended');
    expect(mails.join()).toContain('/join');

    clock().advance(3 * DAY);
    await runJob();
    expect(await chargeList(m.userId)).toHaveLength(5); // never charged again automatically

    // Over a month has passed on the clock: the session expired; sign in again.
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: m.email, password: PASSWORD },
    });
    m.auth = { authorization: `Bearer ${login.json().token}` };
    const summary = await t.app.inject({ method: 'GET', url: '/user/membership', headers: m.auth });
    expect(summary.json()).toMatchObject({ status: 'expired', renewalFailures: 4 });
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: m.auth });
    expect(new Date(me.json().user.active).getTime()).toBeLessThan(clock().now().getTime());

    // Restart from /join ("Welcome back!"): a fresh start with a good card.
    const restart = await t.app.inject({
      method: 'POST',
      url: '/user/membership',
      headers: m.auth,
      payload: CARD,
    });
    expect(restart.statusCode).toBe(200);
    expect(new Date(restart.json().active).getTime()).toBe(addMonths(clock().now(), 1).getTime());
    expect(restart.json().silver).toBe(400);
    u = await row(m.userId);
    expect(u).toMatchObject({ renewalFailures: 0, nextRenewalAttemptAt: null });
  });

  it('retries at once when a member in the retry window saves a new card', async () => {
    const { jobs } = t;
    clock().set(T0);
    const m = await member(0);
    await setCard(m.auth, SANDBOX_CARDS.declinesCharges);
    const end = (await row(m.userId)).active!;
    clock().set(new Date(end.getTime() + 3600_000)); // past the end: access has stopped
    await runJob();
    expect((await row(m.userId)).renewalFailures).toBe(1);

    const sentBefore = jobs.sent.length;
    await setCard(m.auth, '4242424242424242');
    expect(jobs.sent.slice(sentBefore).map((j) => j.name)).toEqual([RENEW_JOB]);
    await runJob();
    const u = await row(m.userId);
    expect(u.renewalFailures).toBe(0);
    // Access stopped for an hour, so the new month counts from the successful charge.
    expect(u.active!.getTime()).toBe(addMonths(clock().now(), 1).getTime());
    expect(u.silver).toBe(100);
  });

  it('leaves alone memberships without a card or that ended long ago', async () => {
    clock().set(T0);
    const plain = await signUp(t.app);
    const m = await member(0);
    // Ended 30 days ago with a card on file: never charged automatically.
    await t.db.handle.db
      .update(users)
      .set({ active: new Date(T0.getTime() - 30 * DAY) })
      .where(eq(users.id, m.userId));
    await runJob();
    expect(await chargeList(m.userId)).toHaveLength(1);
    expect(await chargeList(plain.userId)).toHaveLength(0);
  });
});
