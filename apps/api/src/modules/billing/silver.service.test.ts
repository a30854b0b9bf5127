import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { silverLedger, users } from '../../db/schema';
import { AppError } from '../../errors';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { creditSilver, debitSilver, silverHistory } from './silver.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function balance(userId: number) {
  const [u] = await t.db.handle.db.select().from(users).where(eq(users.id, userId));
  const rows = await t.db.handle.db
    .select()
    .from(silverLedger)
    .where(eq(silverLedger.userId, userId));
  return { silver: u!.silver, ledgerSum: rows.reduce((s, r) => s + r.delta, 0), rows };
}

describe('silver service', () => {
  it('credits and debits with a ledger row for each change', async () => {
    const { userId } = await signUp(t.app);
    const db = t.db.handle.db;
    expect(await creditSilver(db, userId, 50, 'membership', 7)).toBe(50);
    expect(await db.transaction((tx) => debitSilver(tx, userId, 20, 'vote', 3))).toBe(30);
    const b = await balance(userId);
    expect(b.silver).toBe(30);
    expect(b.ledgerSum).toBe(30);
    const h = await silverHistory(db, userId, { limit: 10 });
    expect(h.silver).toBe(30);
    expect(h.history.map((r) => [r.delta, r.balanceAfter, r.reason, r.refId])).toEqual([
      [-20, 30, 'vote', 3],
      [50, 50, 'membership', 7],
    ]);
    expect(h.nextBefore).toBeNull();
    const page1 = await silverHistory(db, userId, { limit: 1 });
    expect(page1.history).toHaveLength(1);
    const page2 = await silverHistory(db, userId, { limit: 1, before: page1.nextBefore! });
    expect(page2.history[0]!.delta).toBe(50);
  });

  it('refuses to overdraw with 402 and changes nothing', async () => {
    const { userId } = await signUp(t.app);
    const db = t.db.handle.db;
    await creditSilver(db, userId, 5, 'membership');
    const err = await db.transaction((tx) => debitSilver(tx, userId, 6, 'vote')).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      status: 402,
      code: 'NOT_ENOUGH_SILVER',
      message: 'Not enough silver.',
    });
    expect((await balance(userId)).silver).toBe(5);
    await expect(debitSilver(db, userId, 0, 'vote')).rejects.toMatchObject({ status: 400 });
    await expect(creditSilver(db, userId, -3, 'vote')).rejects.toMatchObject({ status: 400 });
    await expect(debitSilver(db, 999999, 1, 'vote')).rejects.toMatchObject({ status: 404 });
  });

  it('rolls back with the transaction it joined', async () => {
    const { userId } = await signUp(t.app);
    const db = t.db.handle.db;
    await creditSilver(db, userId, 10, 'membership');
    await db
      .transaction(async (tx) => {
        await debitSilver(tx, userId, 4, 'bounty_hold', 1);
        throw new Error('later step failed');
      })
      .catch(() => undefined);
    const b = await balance(userId);
    expect(b.silver).toBe(10);
    expect(b.rows).toHaveLength(1);
  });

  it('never overdraws under concurrent debits', async () => {
    const { userId } = await signUp(t.app);
    const db = t.db.handle.db;
    await creditSilver(db, userId, 10, 'membership');
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        db.transaction((tx) => debitSilver(tx, userId, 1 + (i % 2), 'vote', i)),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const failed = results.filter((r) => r.status === 'rejected');
    for (const f of failed)
      expect((f as PromiseRejectedResult).reason).toMatchObject({ status: 402 });
    const b = await balance(userId);
    expect(b.silver).toBeGreaterThanOrEqual(0);
    expect(b.ledgerSum).toBe(b.silver);
    expect(b.rows).toHaveLength(1 + ok);
    // Every balanceAfter is a distinct step down from 10: no two debits saw the same balance.
    const after = b.rows.filter((r) => r.delta < 0).map((r) => r.balanceAfter);
    expect(new Set(after).size).toBe(after.length);
    expect(b.silver).toBeLessThanOrEqual(1);
  });
});
