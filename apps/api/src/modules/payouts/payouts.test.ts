import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { ManualClock } from '../../lib/clock';
import type { MailMessage, Mailer } from '../../mail/mailer';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { enrolledAdmin, signIn } from '../../../test/admin-support';
import {
  activeMember,
  earningsOf,
  postBounty,
  postClaim,
  type Session,
} from '../../../test/factories';
import { BANK, earnOnNewClaim, payableHunter } from '../../../test/payout-support';
import { readNacha } from '../../../test/nacha-reader';
import { ledgerRecount } from './ledger.service';
import { PAYOUT_WEEKLY_JOB, RELEASE_EARNINGS_JOB, TAX_FORMS_JOB } from './payouts.jobs';

const exec = promisify(execFile);
const DAY = 86_400_000;
const PER_SILVER = 91_960; // micro-dollars a Deluxe member's silver earns at the 0.80 share
/** Whole cents of `silver` Deluxe silver earned. */
const cents = (silver: number) => Math.floor((silver * PER_SILVER) / 10_000);

const mails: MailMessage[] = [];
const mailer: Mailer = {
  async send(m) {
    mails.push(m);
  },
  async close() {},
};

let t: TestApp;
let poster: Session;
let admin: Awaited<ReturnType<typeof enrolledAdmin>>;
beforeAll(async () => {
  // A Wednesday in 2025 (the $600 threshold year).
  t = await createTestApp({
    clock: new ManualClock(new Date('2025-06-04T12:00:00Z')),
    // A $2 minimum keeps the votes these tests cast few (the default is $20).
    env: { RL_REGISTER_IP: '10000/3600', RL_VOTE_USER: '10000/60', PAYOUT_MINIMUM_CENTS: '200' },
    parts: { mailer },
  });
  poster = await activeMember(t.app, t.db.handle.db, t.clock.now(), 100_000);
  admin = await enrolledAdmin(t);
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

async function expectBalanced() {
  const r = await ledgerRecount(t.db.handle.db);
  expect(r.mismatched).toEqual([]);
  expect(r).toMatchObject({ balanceSum: 0, entrySum: 0, unbalancedTransactions: 0 });
  return r;
}

async function batchFile(batchId: number): Promise<string> {
  const res = await get(`/admin/payouts/batches/${batchId}/file`, admin.auth);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-disposition']).toMatch(/attachment; filename="payouts-.*\.ach"/);
  return res.body;
}

describe('earnings in money', () => {
  it('GET /user/earnings is for hunters: 401 anonymous, 403 members', async () => {
    expect((await get('/user/earnings', {})).statusCode).toBe(401);
    expect((await get('/user/earnings', poster.auth)).statusCode).toBe(403);
  });

  it('votes become pending money at the voter plan and creator share; what is missing is listed', async () => {
    const hunter = await signUp(t.app, { hunter: true });
    await earnOnNewClaim(t, hunter, poster, 7);
    const res = await get('/user/earnings', hunter.auth);
    expect(res.statusCode).toBe(200);
    const e = res.json();
    expect(e).toMatchObject({
      pendingCents: cents(7), // 64¢: 7 × $22.99/200 × 0.8
      availableCents: 0,
      paidCents: 0,
      payouts: [],
      missing: ['identity', 'name', 'address', 'ssn', 'bank'],
      minimumCents: 200,
      holdDays: 7,
      nextRunAt: '2025-06-09T09:00:00.000Z',
    });
    expect(e.weeks).toHaveLength(12);
    expect(e.weeks.at(-1)).toEqual({ weekStart: '2025-06-02', earnedCents: cents(7) });
    await expectBalanced();
  });
});

describe('the weekly payout run', () => {
  let rich: Session;
  let savings: Session;
  let unapproved: Session;
  let small: Session;
  beforeAll(async () => {
    rich = await payableHunter(t);
    savings = await payableHunter(t, { accountType: 'savings' });
    unapproved = await payableHunter(t, { skip: ['identity'] });
    small = await payableHunter(t);
    await earnOnNewClaim(t, rich, poster, 30); // $2.75
    await earnOnNewClaim(t, savings, poster, 25); // $2.29
    await earnOnNewClaim(t, unapproved, poster, 30);
    await earnOnNewClaim(t, small, poster, 10); // 91¢: under the $2 minimum
  });

  it('pays nothing while earnings are on hold', async () => {
    const res = await post('/admin/payouts/run', admin.auth);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NOTHING_TO_PAY' });
  });

  it('after the hold: the preview lists payees and who is held back and why', async () => {
    t.clock.advance(8 * DAY);
    await t.runJob(RELEASE_EARNINGS_JOB);
    expect(await earningsOf(t.db.handle.db, rich.userId)).toEqual({
      pending: 0,
      available: 30 * PER_SILVER,
    });
    const res = await get('/admin/payouts/preview', admin.auth);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    const mine = (id: number) => p.payees.find((x: { userId: number }) => x.userId === id);
    expect(mine(rich.userId)).toMatchObject({ amountCents: cents(30), accountLastFour: '6789' });
    expect(mine(savings.userId)).toMatchObject({ amountCents: cents(25) });
    expect(mine(unapproved.userId)).toBeUndefined();
    const held = (id: number) => p.held.find((x: { userId: number }) => x.userId === id);
    expect(held(unapproved.userId)).toMatchObject({ reasons: ['identity'] });
    expect(held(small.userId)).toMatchObject({ availableCents: cents(10), reasons: ['minimum'] });
  });

  it('run now: one payout per qualifying hunter and a NACHA file that parses and balances', async () => {
    const before = await ledgerRecount(t.db.handle.db);
    const res = await post('/admin/payouts/run', admin.auth);
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json();
    expect(batch).toMatchObject({
      kind: 'manual',
      weekOf: null,
      count: 2,
      totalCents: cents(30) + cents(25),
    });

    const detail = (await get(`/admin/payouts/batches/${batch.batchId}`, admin.auth)).json();
    expect(
      detail.payouts.map((x: { userId: number; amountCents: number; status: string }) => [
        x.userId,
        x.amountCents,
        x.status,
      ]),
    ).toEqual([
      [rich.userId, cents(30), 'sent'],
      [savings.userId, cents(25), 'sent'],
    ]);

    const file = readNacha(await batchFile(batch.batchId));
    expect(file.batches).toHaveLength(1);
    expect(file.batches[0]!.secCode).toBe('PPD');
    expect(
      file.entries.map((e) => [e.transactionCode, e.routingNumber, e.accountNumber, e.amountCents]),
    ).toEqual([
      ['22', BANK.routingNumber, BANK.accountNumber, cents(30)],
      ['32', BANK.routingNumber, BANK.accountNumber, cents(25)],
    ]);
    expect(file.entries.map((e) => e.individualId)).toEqual(
      detail.payouts.map((x: { payoutId: number }) => String(x.payoutId)),
    );
    expect(file.fileControl.totalCreditCents).toBe(cents(30) + cents(25));
    expect(file.batches[0]!.control.totalCreditCents).toBe(cents(30) + cents(25));
    expect(file.fileControl.entryHash).toBe(file.computedEntryHash);

    // What is left under a cent stays available; the rest is paid out.
    expect((await earningsOf(t.db.handle.db, rich.userId)).available).toBe(
      30 * PER_SILVER - cents(30) * 10_000,
    );
    const after = await expectBalanced();
    expect(after.byCode.paid_out! - (before.byCode.paid_out ?? 0)).toBe(
      -(cents(30) + cents(25)) * 10_000,
    );

    const e = (await get('/user/earnings', rich.auth)).json();
    expect(e).toMatchObject({ availableCents: 0, paidCents: cents(30) });
    expect(e.payouts).toEqual([
      expect.objectContaining({ amountCents: cents(30), status: 'sent', accountLastFour: '6789' }),
    ]);
    expect(mails.filter((m) => m.to === rich.email).map((m) => m.subject)).toEqual([
      'Your payout of $2.75 is on its way',
    ]);
    // The account number is in the file only, never in an answer or the audit log.
    const audit = (await get('/admin/audit?action=payout.run', admin.auth)).body;
    expect(audit).toContain(String(batch.batchId));
    expect(audit).not.toContain(BANK.accountNumber);
    expect(JSON.stringify(detail)).not.toContain(BANK.accountNumber);
  });

  it('a returned payout is available again, the hunter is mailed, and it is paid next week', async () => {
    const e = (await get('/user/earnings', savings.auth)).json();
    const payoutId = e.payouts[0].payoutId;
    const bad = await post(`/admin/payouts/${payoutId}/return`, admin.auth, { code: 'R99' });
    expect(bad.statusCode).toBe(400);
    const res = await post(`/admin/payouts/${payoutId}/return`, admin.auth, { code: 'R03' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'returned',
      returnReason: 'R03: No account / unable to locate account',
    });
    expect(
      (await post(`/admin/payouts/${payoutId}/return`, admin.auth, { code: 'R03' })).statusCode,
    ).toBe(409);
    expect((await get('/user/earnings', savings.auth)).json()).toMatchObject({
      availableCents: cents(25),
      paidCents: 0,
    });
    expect(mails.filter((m) => m.to === savings.email).at(-1)?.subject).toBe(
      'Your payout was returned by your bank',
    );
    await expectBalanced();

    // The weekly run (Monday 09:00) pays it again, once, even when it runs twice at once.
    t.clock.set(new Date('2025-06-16T09:00:00Z'));
    await Promise.all([t.runJob(PAYOUT_WEEKLY_JOB), t.runJob(PAYOUT_WEEKLY_JOB)]);
    await t.runJob(PAYOUT_WEEKLY_JOB);
    const weekly = await queryRows<{ kind: string; week_of: string; count: number }>(
      t.db.handle.db,
      sql`select kind, to_char(week_of, 'YYYY-MM-DD') as week_of, count from payout_batches where kind = 'scheduled'`,
    );
    expect(weekly).toEqual([{ kind: 'scheduled', week_of: '2025-06-16', count: 1 }]);
    expect((await get('/user/earnings', savings.auth)).json()).toMatchObject({
      availableCents: 0,
      paidCents: cents(25),
    });
    await expectBalanced();
  });

  it('an unapproved hunter is never paid; once approved, the next run pays them', async () => {
    expect((await get('/user/earnings', unapproved.auth)).json()).toMatchObject({
      availableCents: cents(30),
      paidCents: 0,
      missing: ['identity'],
    });
  });
});

describe('money under concurrency', () => {
  it('votes, settlements, a hidden claim and two payout runs at once never pay twice or unbalance the ledger', async () => {
    const hunters = await Promise.all([payableHunter(t), payableHunter(t), payableHunter(t)]);
    const claims: number[] = [];
    for (const h of hunters) claims.push(await earnOnNewClaim(t, h, poster, 25));
    t.clock.advance(8 * DAY);
    await t.root.services.payouts.releaseDue();
    // More votes arrive on the first hunter's claim while runs, a settle and a hide happen.
    const voters = await Promise.all(
      Array.from({ length: 10 }, () => activeMember(t.app, t.db.handle.db, t.clock.now(), 5)),
    );
    const moderator = await enrolledAdmin(t);
    const [, , , runA, runB] = await Promise.all([
      Promise.all(voters.map((v) => post('/vote', v.auth, { claimId: claims[0], votes: 5 }))),
      t.root.services.bounties.settleEarnings(),
      post(`/admin/reports/claim/${claims[2]}/hide`, moderator.auth),
      post('/admin/payouts/run', admin.auth),
      post('/admin/payouts/run', moderator.auth),
    ]);
    await t.root.services.bounties.settleEarnings();
    const statuses = [runA.statusCode, runB.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const paid = await queryRows<{ user_id: number; n: number; cents: string }>(
      t.db.handle.db,
      sql`select user_id, count(*)::int as n, sum(amount_cents)::text as cents from payouts
          where user_id = any(${sql.param(hunters.map((h) => h.userId))}::int4[]) group by user_id`,
    );
    // Each hunter paid at most once, never more than was earned.
    for (const row of paid) {
      expect(row.n).toBe(1);
      expect(Number(row.cents)).toBeLessThanOrEqual(cents(25));
    }
    // The hidden claim's hunter: paid (the run won) or reversed (the hide won), never both.
    const third = await earningsOf(t.db.handle.db, hunters[2]!.userId);
    const thirdPaid = paid.find((p) => p.user_id === hunters[2]!.userId);
    if (!thirdPaid) expect(third.available).toBe(0);
    // The first hunter's new votes are pending, not paid.
    expect((await earningsOf(t.db.handle.db, hunters[0]!.userId)).pending).toBe(50 * PER_SILVER);
    await expectBalanced();
  });

  it('a hidden claim reverses its unpaid earnings with new rows', async () => {
    const h = await payableHunter(t);
    const claimId = await earnOnNewClaim(t, h, poster, 10);
    expect((await earningsOf(t.db.handle.db, h.userId)).pending).toBe(10 * PER_SILVER);
    const entriesBefore = (await ledgerRecount(t.db.handle.db)).entries;
    const res = await post(`/admin/reports/claim/${claimId}/hide`, admin.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(await earningsOf(t.db.handle.db, h.userId)).toEqual({ pending: 0, available: 0 });
    const r = await expectBalanced();
    expect(r.entries).toBe(entriesBefore + 2);
    // The ledger refuses edits.
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (err: Error & { cause?: Error }) => `${err.message} ${err.cause?.message ?? ''}`,
      );
    expect(await refusal(t.db.handle.db.execute(sql`delete from ledger_entries`))).toMatch(
      /append-only/,
    );
    expect(
      await refusal(t.db.handle.db.execute(sql`update ledger_transactions set kind = 'x'`)),
    ).toMatch(/append-only/);
  });
});

describe('Form 1099-NEC', () => {
  it('the January job makes forms for hunters paid at least the threshold; the hunter downloads Copy B', async () => {
    const big = await payableHunter(t);
    const { bountyId } = await postBounty(t.app, poster, {
      title: 'Grand prize',
      seconds: 86_400,
      amount: 10_000,
    });
    await postClaim(t.app, t.db.handle.db, big, bountyId);
    t.clock.advance(DAY + 60_000);
    await t.runJob('bounties.close-rounds');
    t.clock.advance(8 * DAY);
    const run = await post('/admin/payouts/run', admin.auth);
    expect(run.statusCode, run.body).toBe(200);
    const prizeCents = cents(10_000); // $919.60

    t.clock.set(new Date('2026-01-02T06:00:00Z'));
    await t.runJob(TAX_FORMS_JOB);
    // Months later: sessions of last year have expired.
    const office = await enrolledAdmin(t);
    const hunterAuth = await signIn(t, big.email);
    const listRes = await get('/admin/tax-forms/2025', office.auth);
    expect(listRes.statusCode, listRes.body).toBe(200);
    const list = listRes.json();
    expect(list.thresholdCents).toBe(60_000);
    expect(
      list.forms.map((f: { userId: number; amountCents: number }) => [f.userId, f.amountCents]),
    ).toEqual([[big.userId, prizeCents]]);

    const mine = (await get('/user/tax-forms', hunterAuth)).json();
    expect(mine.forms).toEqual([expect.objectContaining({ year: 2025, amountCents: prizeCents })]);
    const pdf = await get('/user/tax-forms/2025/pdf', hunterAuth);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nec-'));
    fs.writeFileSync(path.join(dir, 'f.pdf'), pdf.rawPayload);
    const { stdout } = await exec('pdftotext', ['-layout', path.join(dir, 'f.pdf'), '-']);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(stdout).toContain(`Hunter${big.userId}`);
    expect(stdout).toContain('919.60');
    expect(stdout).toMatch(/\*\*\*-\*\*-\d{4}/);
    expect(stdout).toContain('2025');
    expect((await get('/user/tax-forms/2024/pdf', hunterAuth)).statusCode).toBe(404);
    expect((await get('/user/tax-forms/2025/pdf', office.auth)).statusCode).toBe(403);

    const csv = await get('/admin/tax-forms/2025/csv', office.auth);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('box1_nonemployee_compensation');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('919.60');
    expect(lines[1]).not.toMatch(/\d{9}/);

    const again = await post('/admin/tax-forms/2025/generate', office.auth);
    expect(again.json()).toEqual({ year: 2025, count: 1 });
    expect((await post('/admin/tax-forms/2027/generate', office.auth)).statusCode).toBe(400);
  });
});
