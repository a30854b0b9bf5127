/**
 * One Drizzle database over two drivers: node-postgres (a PostgreSQL server, or the embedded one
 * the product starts itself: embedded-postgres://DIR, the default) and PGlite (pglite://DIR,
 * memory://). Everything above this file sees only `Db`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Query, SQL } from 'drizzle-orm';
import type {
  PgDatabase,
  PgDialect,
  PgPreparedQuery,
  PgQueryResultHKT,
  PgSession,
  PreparedQueryConfig,
} from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  /**
   * The same database, whose statements wait for a pool connection ahead of every statement
   * already waiting (decision 0039): for a request's follow-up statements, so a request that
   * has begun is finished before new ones begin. `db` itself on PGlite (no pool).
   */
  ahead: Db;
  kind: 'pglite' | 'postgres';
  pglite?: PGlite;
  pool?: pg.Pool;
  /** The embedded PostgreSQL server (embedded-postgres://). */
  embedded?: EmbeddedPostgres;
  close(): Promise<void>;
}

const here = path.dirname(new URL(import.meta.url).pathname);
/** Beside this file; from the bundled API (apps/api/build, scripts/api-build.mjs) in src/db. */
export const MIGRATIONS_DIR = fs.existsSync(path.join(here, 'migrations'))
  ? path.join(here, 'migrations')
  : path.resolve(here, '../src/db/migrations');

export interface CreateDatabaseOptions {
  /** PGlite only: start from a dumped data dir (tests). */
  loadDataDir?: Blob | File;
  poolSize?: number;
  /** embedded-postgres:// only: where the server's start-up lines go. */
  onLog?: (line: string) => void;
}

export const EMBEDDED_POSTGRES = 'embedded-postgres://';

export async function createDatabase(
  url: string,
  opts: CreateDatabaseOptions = {},
): Promise<DatabaseHandle> {
  if (url.startsWith(EMBEDDED_POSTGRES)) {
    const embedded = await openEmbeddedPostgres(url.slice(EMBEDDED_POSTGRES.length), {
      ...(opts.onLog ? { onLog: opts.onLog } : {}),
    });
    try {
      const handle = await createDatabase(embedded.url, opts);
      return {
        ...handle,
        embedded,
        close: async () => {
          await handle.close();
          await embedded.stop();
        },
      };
    } catch (err) {
      await embedded.stop();
      throw err;
    }
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      // While PostgreSQL is down or restarting, a request waits at most this long for a
      // connection, then answers 503 (plugins/error-handler) instead of hanging.
      connectionTimeoutMillis: 3000,
      // Dead peers (a lost database host) are noticed by the kernel, not by a request.
      keepAlive: true,
    });
    // An idle client's error (server restart) must not crash the process.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const ahead = drizzlePg({ client: new AheadPool(pool) as unknown as pg.Pool, schema });
    return { db, ahead: ahead as unknown as Db, kind: 'postgres', pool, close: () => pool.end() };
  }
  let dataDir: string | undefined;
  if (url.startsWith('pglite://')) {
    dataDir = url.slice('pglite://'.length);
    fs.mkdirSync(dataDir, { recursive: true });
  } else if (!url.startsWith('memory://')) {
    throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
  }
  // Loaded only here: a PostgreSQL deployment never holds PGlite's code (decision 0008).
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return { db, ahead: db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/**
 * A pool's connections taken ahead of the queue (decision 0039). At 50 requests in flight on
 * 10 connections, a statement waits for most of a request's time; a search that must build
 * bounties it does not keep runs two statements more, and waited three times as long as one
 * that did not: those were the slowest 1 % at 1,000,000 claims. Through this pool such
 * statements wait only for the next free connection.
 *
 * Drizzle runs a statement through `query` (a connection taken ahead, then given back) and a
 * transaction on one connection from `connect` (it treats a client whose class is named
 * *Pool as a pool). It moves the waiter pg-pool queues to the front of its queue (a field of
 * pg-pool's own, checked on every call: without it, this waits in line).
 */
class AheadPool {
  constructor(private readonly pool: pg.Pool) {}

  connect(): Promise<pg.PoolClient> {
    const queue = (this.pool as unknown as { _pendingQueue?: unknown })._pendingQueue;
    const waiting = Array.isArray(queue) ? queue.length : -1;
    const client = this.pool.connect();
    if (Array.isArray(queue) && queue.length === waiting + 1) queue.unshift(queue.pop());
    return client;
  }

  /** As pg-pool's own `query`: a connection whose statement failed, or that failed, is dropped. */
  async query(config: pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const client = await this.connect();
    return new Promise((resolve, reject) => {
      let released = false;
      const release = (err?: Error): boolean => {
        if (released) return false;
        released = true;
        client.removeListener('error', onError);
        client.release(err);
        return true;
      };
      const onError = (err: Error) => {
        if (release(err)) reject(err);
      };
      client.once('error', onError);
      client.query(config, values).then(
        (res) => {
          if (release()) resolve(res);
        },
        (err: Error) => {
          if (release(err)) reject(err);
        },
      );
    });
  }
}

/** Raw SQL rows, the same on both drivers. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/**
 * A statement for the hot paths: its SQL text is built once (parameters are
 * `sql.placeholder(name)`), and on PostgreSQL it runs as a named prepared statement, so each
 * connection parses and plans it once instead of on every request. Works on the database and
 * inside a transaction alike; rows come back as the driver gives them (like queryRows).
 */
export function preparedRows<T>(
  name: string,
  query: SQL,
): (db: DbOrTx, params?: Record<string, unknown>) => Promise<T[]> {
  let built: Query | undefined;
  const bySession = new WeakMap<object, PgPreparedQuery<PreparedQueryConfig>>();
  return async (db, params = {}) => {
    const inner = db as unknown as { dialect: PgDialect; session: PgSession };
    built ??= inner.dialect.sqlToQuery(query);
    let stmt = bySession.get(inner.session);
    if (!stmt) {
      stmt = inner.session.prepareQuery(built, undefined, name, false);
      bySession.set(inner.session, stmt);
    }
    const res = (await stmt.execute(params)) as { rows: T[] };
    return res.rows;
  };
}

/**
 * The same for a Drizzle query builder with `sql.placeholder` parameters (typed, mapped rows):
 * `const byId = preparedQuery('users_by_id', (db) => db.select().from(users).where(eq(users.id,
 * sql.placeholder('id'))))`, then `await byId(db, { id })`. Built once per database or
 * transaction object.
 */
export function preparedQuery<R>(
  name: string,
  build: (db: DbOrTx) => {
    prepare(name: string): { execute(p?: Record<string, unknown>): Promise<R> };
  },
): (db: DbOrTx, params?: Record<string, unknown>) => Promise<R> {
  const byDb = new WeakMap<object, { execute(p?: Record<string, unknown>): Promise<R> }>();
  return (db, params = {}) => {
    let stmt = byDb.get(db);
    if (!stmt) {
      stmt = build(db).prepare(name);
      byDb.set(db, stmt);
    }
    return stmt.execute(params);
  };
}

/** The pg_advisory_lock key (any constant) held while migrating: one instance at a time. */
export const MIGRATION_LOCK = 0x62686d69677221n;

export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'postgres') {
    // Several instances starting at once on one database (a new release, `npm run cluster`):
    // the first migrates, the others wait on the lock and then find nothing left to do.
    // The lock has a connection of its own, outside the pool (which may be a single one).
    const lock = new pg.Client({
      connectionString: (handle.pool!.options as { connectionString?: string }).connectionString,
    });
    await lock.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
      await migratePg(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.end();
    }
  } else {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}
