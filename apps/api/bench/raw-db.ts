/** Plain SQL over either driver, for bulk loading (no ORM in the hot loop). */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { DatabaseHandle } from '../src/db/client';

export interface RawDb {
  kind: 'pglite' | 'postgres';
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction on one connection. */
  transaction<T>(fn: (q: RawDb) => Promise<T>): Promise<T>;
  release(): Promise<void>;
}

function fromPgClient(client: pg.PoolClient): RawDb {
  const self: RawDb = {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      const res = await client.query(text, params as unknown[]);
      return res.rows as T[];
    },
    async transaction<T>(fn: (q: RawDb) => Promise<T>) {
      await client.query('begin');
      try {
        const out = await fn(self);
        await client.query('commit');
        return out;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      }
    },
    async release() {
      client.release();
    },
  };
  return self;
}

function fromPglite(db: PGlite | Transaction, inTx: boolean): RawDb {
  return {
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      const res = await db.query<T>(text, params);
      return res.rows;
    },
    async transaction<T>(fn: (q: RawDb) => Promise<T>) {
      if (inTx) return fn(fromPglite(db, true));
      return (db as PGlite).transaction((tx) => fn(fromPglite(tx, true)));
    },
    async release() {},
  };
}

/** One connection of the handle (a dedicated pool client on PostgreSQL). */
export async function rawConnection(handle: DatabaseHandle): Promise<RawDb> {
  if (handle.kind === 'postgres') return fromPgClient(await handle.pool!.connect());
  return fromPglite(handle.pglite!, false);
}

export type PgType = 'int4' | 'text' | 'timestamptz';

/**
 * Multi-row insert as `insert … select * from unnest($1::int4[], $2::text[], …)`: one
 * parameter per column whatever the row count, so a chunk of 20,000 rows is one round trip.
 */
export async function bulkInsert(
  q: RawDb,
  table: string,
  columns: readonly (readonly [string, PgType])[],
  data: readonly unknown[][],
  chunk = 20_000,
): Promise<void> {
  const rows = data[0]?.length ?? 0;
  if (rows === 0) return;
  const names = columns.map(([n]) => n).join(', ');
  const casts = columns.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ');
  const text = `insert into ${table} (${names}) select * from unnest(${casts})`;
  for (let start = 0; start < rows; start += chunk) {
    const end = Math.min(rows, start + chunk);
    await q.query(
      text,
      data.map((col) => col.slice(start, end)),
    );
  }
}

/** Moves the serial sequence of table.id past the ids written explicitly. */
export async function syncSequence(q: RawDb, table: string): Promise<void> {
  await q.query(
    `select setval(pg_get_serial_sequence('${table}', 'id'), greatest(coalesce((select max(id) from ${table}), 0), 1), (select count(*) > 0 from ${table}))`,
  );
}

export async function maxId(q: RawDb, table: string): Promise<number> {
  const [row] = await q.query<{ m: number | null }>(`select max(id)::int as m from ${table}`);
  return row?.m ?? 0;
}
