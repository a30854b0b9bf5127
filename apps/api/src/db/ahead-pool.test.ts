/**
 * `handle.ahead` (decision 0039): the same database, whose statements wait for a pool
 * connection ahead of those already waiting. On PGlite (no pool) it is the database itself.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helper';
import { createDatabase, queryRows, type DatabaseHandle } from './client';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(poolSize: number): Promise<{ t: TestDatabase; h: DatabaseHandle }> {
  const t = await createTestDatabase();
  cleanups.push(() => t.drop());
  if (t.handle.kind === 'pglite') return { t, h: t.handle };
  const h = await createDatabase(t.url, { poolSize });
  cleanups.push(() => h.close());
  return { t, h };
}

describe('the database ahead of the queue', () => {
  it('runs statements and transactions as the database does', async () => {
    const { h } = await setup(2);
    if (h.kind === 'pglite') expect(h.ahead).toBe(h.db);
    await h.db.execute(sql`create table ahead_rows (n int4 not null)`);
    await h.ahead.transaction(async (tx) => {
      await tx.execute(sql`insert into ahead_rows values (1)`);
      // One connection for the whole transaction (two would show two transaction ids).
      const [a] = await queryRows<{ x: string }>(tx, sql`select txid_current()::text as x`);
      const [b] = await queryRows<{ x: string }>(tx, sql`select txid_current()::text as x`);
      expect(a!.x).toBe(b!.x);
    });
    await expect(
      h.ahead.transaction(async (tx) => {
        await tx.execute(sql`insert into ahead_rows values (2)`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await queryRows(h.ahead, sql`select n from ahead_rows order by n`)).toEqual([{ n: 1 }]);
    // A statement that fails rejects with the database's error; the next one is answered.
    await expect(h.ahead.execute(sql`select * from no_such_table`)).rejects.toThrow(
      /no_such_table/,
    );
    expect(await queryRows(h.ahead, sql`select 3 as n`)).toEqual([{ n: 3 }]);
  });

  it('takes the next free connection before statements that were waiting for one', async () => {
    const { h } = await setup(1);
    if (h.kind === 'pglite') return; // no pool, no queue
    const held = await h.pool!.connect();
    const order: string[] = [];
    const first = queryRows(h.db, sql`select 1 as n`).then(() => order.push('waiting first'));
    const second = queryRows(h.db, sql`select 2 as n`).then(() => order.push('waiting second'));
    const ahead = queryRows(h.ahead, sql`select 3 as n`).then(() => order.push('ahead'));
    await new Promise((r) => setTimeout(r, 50));
    expect(h.pool!.waitingCount).toBe(3);
    held.release();
    await Promise.all([first, second, ahead]);
    expect(order).toEqual(['ahead', 'waiting first', 'waiting second']);
  });
});
