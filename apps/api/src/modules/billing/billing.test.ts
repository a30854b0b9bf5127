import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { charges, silverLedger, users } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { SANDBOX_CARDS } from '../../payments/sandbox-gateway';
import { TEST_CARD } from '../../../test/factories';
import { CARD_MSG } from '@bountyhunt/shared/billing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
});
afterAll(() => t.close());

const CARD = TEST_CARD;

const MONTH_MS = (from: Date) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.getTime() - from.getTime();
};

async function chargesOf(userId: number) {
  return t.db.handle.db.select().from(charges).where(eq(charges.userId, userId));
}

async function start(auth: { authorization: string }, card: object = CARD, headers = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/user/membership',
    headers: { ...auth, ...headers },
    payload: card,
  });
}

describe('PUT /user/membership/{planIndex}', () => {
  it('saves the chosen plan for a member', async () => {
    const m = await signUp(t.app);
    const res = await t.app.inject({ method: 'PUT', url: '/user/membership/1', headers: m.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: m.userId, membership: 1, active: null });
  });

  it('refuses a plan index other than 0, 1 or 2 with 400', async () => {
    const m = await signUp(t.app);
    // Digits only: '%20' (blank) once chose plan 0 and '0x1' plan 1.
    for (const p of ['3', '-1', 'x', '1.5', '%20', '0x1', '1e0', '1.0']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/user/membership/${p}`,
        headers: m.auth,
      });
      expect(res.statusCode, p).toBe(400);
      expect(res.json().message).toBe('Please choose one of the three plans.');
    }
  });

  it('is for signed-in members only (401, 403 for creators)', async () => {
    expect((await t.app.inject({ method: 'PUT', url: '/user/membership/1' })).statusCode).toBe(401);
    const h = await signUp(t.app, { hunter: true });
    for (const req of [
      { method: 'PUT' as const, url: '/user/membership/1' },
      { method: 'POST' as const, url: '/user/membership', payload: CARD },
      { method: 'PUT' as const, url: '/user/card', payload: CARD },
      { method: 'GET' as const, url: '/user/membership' },
      { method: 'GET' as const, url: '/user/silver' },
    ]) {
      const res = await t.app.inject({ ...req, headers: h.auth });
      expect(res.statusCode, req.url).toBe(403);
    }
  });
});

describe('POST /user/membership', () => {
  it('charges the plan price, sets active one month ahead and credits the plan silver (Deluxe by default)', async () => {
    const m = await signUp(t.app);
    const before = t.clock.now();
    const res = await start(m.auth);
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({ membership: 2, silver: 200, creditCardLastFour: '4242' });
    expect(new Date(user.active).getTime() - before.getTime()).toBe(MONTH_MS(before));
    const rows = await chargesOf(m.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'membership_start',
      amountCents: 2299,
      status: 'succeeded',
      planIndex: 2,
    });
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: m.auth });
    expect(me.json().user.silver).toBe(200);
    const silver = await t.app.inject({ method: 'GET', url: '/user/silver', headers: m.auth });
    expect(silver.json()).toMatchObject({
      silver: 200,
      history: [{ delta: 200, balanceAfter: 200, reason: 'membership', refId: rows[0]!.id }],
    });
    const summary = await t.app.inject({ method: 'GET', url: '/user/membership', headers: m.auth });
    expect(summary.json()).toEqual({
      status: 'active',
      membership: 2,
      pendingMembership: null,
      active: user.active,
      card: { brand: 'Visa', lastFour: '4242', expMonth: 12, expYear: 2030 },
      renewalFailures: 0,
      nextRenewalAttemptAt: null,
    });
  });

  it('charges the chosen plan: Standard $6.99 and 50 silver', async () => {
    const m = await signUp(t.app);
    await t.app.inject({ method: 'PUT', url: '/user/membership/0', headers: m.auth });
    const res = await start(m.auth, { ...CARD, number: '5555555555554444', year: '2031' });
    expect(res.json()).toMatchObject({ membership: 0, silver: 50, creditCardLastFour: '4444' });
    expect((await chargesOf(m.userId)).map((c) => c.amountCents)).toEqual([699]);
  });

  it('answers a declined card with 402 and its message, charging and storing nothing', async () => {
    const m = await signUp(t.app);
    const res = await start(m.auth, { ...CARD, number: SANDBOX_CARDS.declined });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: 'Your card was declined.', code: 'CARD_DECLINED' });
    const [u] = await t.db.handle.db.select().from(users).where(eq(users.id, m.userId));
    expect(u).toMatchObject({ active: null, silver: 0, cardToken: null, cardLastFour: null });
  });

  it('records a charge the processor declines and answers 402', async () => {
    const m = await signUp(t.app);
    const res = await start(m.auth, { ...CARD, number: SANDBOX_CARDS.declinesCharges });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe('Your card was declined.');
    const rows = await chargesOf(m.userId);
    expect(rows.map((r) => r.status)).toEqual(['declined']);
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: m.auth });
    expect(me.json().user).toMatchObject({ active: null, silver: 0, creditCardLastFour: null });
  });

  it('refuses an expired card (402) and malformed card fields (400)', async () => {
    const m = await signUp(t.app);
    const now = t.clock.now();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const expired = await start(m.auth, {
      ...CARD,
      month: String(lastMonth.getUTCMonth() + 1),
      year: String(lastMonth.getUTCFullYear()),
    });
    expect(expired.statusCode).toBe(402);
    expect(expired.json()).toEqual({ message: 'Your card has expired.', code: 'EXPIRED_CARD' });
    const bad: [object, string][] = [
      [{ number: '4242 4242 4242 4241' }, 'Please enter a valid card number.'],
      [{ number: '4242-4242-4242-4242' }, 'Please enter a valid card number.'],
      [{ number: '4242' }, 'Please enter a valid card number.'],
      [{ cvv: '12' }, 'Please enter a valid CVV.'],
      [{ cvv: '12345' }, 'Please enter a valid CVV.'],
      [{ month: '13' }, 'Please enter a valid expiry date.'],
      [{ month: 'ab' }, 'Please enter a valid expiry date.'],
      [{ name: '  ' }, 'Please enter the name on the card.'],
      [{ zip: '' }, 'Please enter your billing zip code.'],
    ];
    for (const [over, message] of bad) {
      const res = await start(m.auth, { ...CARD, ...over });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await chargesOf(m.userId)).toHaveLength(0);
  });

  it('charges once when the same start is sent concurrently', async () => {
    const m = await signUp(t.app);
    const results = await Promise.all(Array.from({ length: 6 }, () => start(m.auth)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const rows = await chargesOf(m.userId);
    expect(rows).toHaveLength(1);
    const ledger = await t.db.handle.db
      .select()
      .from(silverLedger)
      .where(eq(silverLedger.userId, m.userId));
    expect(ledger).toHaveLength(1);
    for (const r of results) expect(r.json().silver).toBe(200);
  });

  it('charges once for concurrent requests carrying one Idempotency-Key, and replays its answer', async () => {
    const m = await signUp(t.app);
    const key = { 'idempotency-key': 'signup-attempt-1' };
    const results = await Promise.all(Array.from({ length: 4 }, () => start(m.auth, CARD, key)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const again = await start(m.auth, CARD, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().active).toBe(results[0]!.json().active);
    expect(await chargesOf(m.userId)).toHaveLength(1);
  });

  it('replays a declined answer for a retried Idempotency-Key without charging again', async () => {
    const m = await signUp(t.app);
    const key = { 'idempotency-key': 'try-1' };
    const first = await start(m.auth, { ...CARD, number: SANDBOX_CARDS.declinesCharges }, key);
    const retry = await start(m.auth, { ...CARD, number: SANDBOX_CARDS.declinesCharges }, key);
    expect([first.statusCode, retry.statusCode]).toEqual([402, 402]);
    expect(retry.json()).toEqual(first.json());
    expect(await chargesOf(m.userId)).toHaveLength(1);
    // A new attempt (new key) with a good card goes through.
    const ok = await start(m.auth, CARD, { 'idempotency-key': 'try-2' });
    expect(ok.statusCode).toBe(200);
    expect((await chargesOf(m.userId)).map((c) => c.status)).toEqual(['declined', 'succeeded']);
  });

  it('does not charge a member who is already active', async () => {
    const m = await signUp(t.app);
    const first = await start(m.auth);
    const second = await start(m.auth, { ...CARD, number: '5555555555554444' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await chargesOf(m.userId)).toHaveLength(1);
  });
});

describe('PUT /user/card', () => {
  it('replaces the card on file without charging (204)', async () => {
    const m = await signUp(t.app);
    await start(m.auth);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user/card',
      headers: m.auth,
      payload: { ...CARD, number: '3782 822463 10005', cvv: '1234', month: '3', year: '2029' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const summary = await t.app.inject({ method: 'GET', url: '/user/membership', headers: m.auth });
    expect(summary.json().card).toEqual({
      brand: 'American Express',
      lastFour: '0005',
      expMonth: 3,
      expYear: 2029,
    });
    expect(await chargesOf(m.userId)).toHaveLength(1);
  });

  it('answers 400 for a blank or malformed expiry (a blank year once read as 2000: 402)', async () => {
    const m = await signUp(t.app);
    await start(m.auth);
    for (const expiry of [
      { year: '' },
      { year: ' ' },
      { month: '' },
      { month: '0x1' },
      { year: '1e3' },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/user/card',
        headers: m.auth,
        payload: { ...CARD, ...expiry },
      });
      expect(res.statusCode, JSON.stringify(expiry)).toBe(400);
      expect(res.json().message).toBe(CARD_MSG.expiry);
    }
  });

  it('answers 402 for the declined test card and keeps the old card', async () => {
    const m = await signUp(t.app);
    await start(m.auth);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user/card',
      headers: m.auth,
      payload: { ...CARD, number: SANDBOX_CARDS.declined },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe('Your card was declined.');
    const me = await t.app.inject({ method: 'GET', url: '/user', headers: m.auth });
    expect(me.json().user.creditCardLastFour).toBe('4242');
  });
});

describe('card secrets', () => {
  it('never stores, logs or returns the card number or CVV', async () => {
    const m = await signUp(t.app);
    const number = '4000056655665556';
    const cvv = '7319';
    const card = { ...CARD, number: '4000 0566 5566 5556', cvv };
    const answers: string[] = [];
    answers.push((await start(m.auth, card)).body);
    answers.push(
      (await t.app.inject({ method: 'PUT', url: '/user/card', headers: m.auth, payload: card }))
        .body,
    );
    // Failures too: a validation error and a decline.
    answers.push((await start(m.auth, { ...card, number: '4000 0566 5566 5557' })).body);
    answers.push(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/user/card',
          headers: m.auth,
          payload: { ...card, number: SANDBOX_CARDS.declined },
        })
      ).body,
    );
    answers.push((await t.app.inject({ method: 'GET', url: '/user', headers: m.auth })).body);
    answers.push(
      (await t.app.inject({ method: 'GET', url: '/user/membership', headers: m.auth })).body,
    );
    const [row] = await t.db.handle.db.select().from(users).where(eq(users.id, m.userId));
    const stored = JSON.stringify([row, await chargesOf(m.userId)]);
    const logs = t.logs.join('\n');
    expect(logs).toContain('/user/card');
    const files = fs.existsSync(t.config.dataDir)
      ? fs
          .readdirSync(t.config.dataDir, { recursive: true, withFileTypes: true })
          .filter((f) => f.isFile())
          .map((f) => fs.readFileSync(path.join(f.parentPath, f.name), 'latin1'))
          .join('\n')
      : '';
    for (const haystack of [logs, stored, answers.join('\n'), files]) {
      for (const secret of [
        number,
        '4000 0566 5566 5556',
        '4000056655665557',
        SANDBOX_CARDS.declined,
      ])
        expect(haystack).not.toContain(secret);
      // The CVV as a value of its own (not digits inside a timestamp, a duration or a
      // random id such as a UUID or a media key).
      expect(haystack).not.toMatch(new RegExp(`(?<![\\w.-])${cvv}(?![\\w.-])`));
      expect(haystack).not.toMatch(/"cvv"\s*:/);
    }
    expect(row!.cardLastFour).toBe('5556');
  });
});
