/**
 * One Drizzle database over two drivers: PGlite (embedded, default) and node-postgres.
 * Everything above this file sees only `Db`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  pglite?: PGlite;
  pool?: pg.Pool;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(
  path.dirname(new URL(import.meta.url).pathname),
  'migrations',
);

export interface CreateDatabaseOptions {
  /** PGlite only: start from a dumped data dir (tests). */
  loadDataDir?: Blob | File;
  poolSize?: number;
}

export async function createDatabase(
  url: string,
  opts: CreateDatabaseOptions = {},
): Promise<DatabaseHandle> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  let dataDir: string | undefined;
  if (url.startsWith('pglite://')) {
    dataDir = url.slice('pglite://'.length);
    fs.mkdirSync(dataDir, { recursive: true });
  } else if (!url.startsWith('memory://')) {
    throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
  }
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return { db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/** Raw SQL rows, the same on both drivers. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    await migratePg(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  } else {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}
