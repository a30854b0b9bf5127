/**
 * Backup and restore round trips: the demo seed in an embedded deployment (PGlite in
 * DATA_DIR/db, media on disk) is backed up and restored into a fresh one, and every table
 * (row by row, by primary key), sequence and file (byte by byte) must be the same. With
 * TEST_DATABASE_URL the same backup goes into PostgreSQL + S3 (s3rver), which is backed up
 * and restored again into another PostgreSQL + S3. Refusals: a database with data, a damaged
 * archive, a media object the database names but storage lacks.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../../test/global-setup';
import { createTestDatabase } from '../../test/helper';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import {
  createDatabase,
  MIGRATIONS_DIR,
  queryRows,
  runMigrations,
  type DatabaseHandle,
} from '../db/client';
import { loadConfig, type Config } from '../env';
import { PgBossJobQueue } from '../jobs/pg-boss-queue';
import { MemoryJobQueue } from '../jobs/memory-queue';
import { seedDemo } from '../seed/seed';
import { createStorage } from '../storage/create-storage';
import { S3Storage } from '../storage/s3-storage';
import type { MediaStorage } from '../storage/storage';
import * as schema from '../db/schema';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import {
  backup,
  BackupError,
  exportRows,
  importRows,
  listTables,
  migrateTo,
  restore,
  verifyBackup,
  type BackupResult,
} from './backup';
import { listTar } from './tar';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-backup-test-'));
let n = 0;
const dir = (name: string) => path.join(tmp, `${name}-${++n}`);

function embeddedConfig(dataDir = dir('data'), env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    EMBEDDED_DB: 'pglite',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** Everything a deployment holds that a backup must carry, in comparable form. */
interface Contents {
  tables: Record<string, string[]>;
  sequences: Record<string, string>;
  files: Record<string, string>;
  payouts: Record<string, string>;
  key: string | null;
}

async function contents(
  database: DatabaseHandle,
  storage: MediaStorage,
  config: Config,
): Promise<Contents> {
  const { db } = database;
  const tables: Contents['tables'] = {};
  for (const t of await listTables(db)) {
    // Every column, generated ones too (the search vector is made again on restore).
    const order = t.primaryKey.length ? t.primaryKey.map((c) => `"${c}"`).join(', ') : '1';
    const rows = await queryRows<{ j: string }>(
      db,
      sql.raw(`select row_to_json(t)::text as j from public."${t.name}" t order by ${order}`),
    );
    tables[t.name] = rows.map((r) => r.j);
  }
  const mig = await queryRows<{ j: string }>(
    db,
    sql.raw(`select row_to_json(m)::text as j from drizzle.__drizzle_migrations m order by id`),
  );
  tables['drizzle.__drizzle_migrations'] = mig.map((r) => r.j);
  // Not backed up (outside the public schema): a restore makes it again from the bounties.
  const prefixes = await queryRows<{ j: string }>(
    db,
    sql.raw(
      `select row_to_json(p)::text as j from search.bounty_prefixes p order by bounty_id, prefix`,
    ),
  );
  tables['search.bounty_prefixes'] = prefixes.map((r) => r.j);
  const pairs = await queryRows<{ j: string }>(
    db,
    sql.raw(
      `select row_to_json(p)::text as j from search.bounty_prefix_pairs p
        order by bounty_id, prefix_a, prefix_b`,
    ),
  );
  tables['search.bounty_prefix_pairs'] = pairs.map((r) => r.j);
  const sequences: Contents['sequences'] = {};
  const seqs = await queryRows<{ name: string }>(
    db,
    sql`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S'`,
  );
  for (const { name } of seqs) {
    const [s] = await queryRows<{ v: string }>(
      db,
      sql.raw(`select last_value::text || ':' || is_called::text as v from public."${name}"`),
    );
    sequences[name] = s!.v;
  }
  const files: Contents['files'] = {};
  for (const vis of ['public', 'private'] as const) {
    for await (const o of storage.list(vis)) {
      const body = await storage.get(o.key, vis);
      const chunks: Buffer[] = [];
      for await (const c of body!) chunks.push(c as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(bytes.length).toBe(o.size);
      // The whole content, hashed only to keep failure messages short.
      files[`${vis}/${o.key}`] = crypto.createHash('sha256').update(bytes).digest('hex');
    }
  }
  const payouts: Contents['payouts'] = {};
  const payoutDir = path.join(config.dataDir, 'payouts');
  if (fs.existsSync(payoutDir))
    for (const f of fs.readdirSync(payoutDir))
      payouts[f] = fs.readFileSync(path.join(payoutDir, f), 'utf8');
  const keyFile = path.join(config.dataDir, 'secret.key');
  const key = fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8') : null;
  return { tables, sequences, files, payouts, key };
}

async function embeddedContents(config: Config): Promise<Contents> {
  const database = await createDatabase(config.databaseUrl);
  const storage = createStorage(config);
  try {
    return await contents(database, storage, config);
  } finally {
    await storage.close();
    await database.close();
  }
}

function expectSame(actual: Contents, expected: Contents, opts: { key?: boolean } = {}) {
  expect(Object.keys(actual.tables).sort()).toEqual(Object.keys(expected.tables).sort());
  for (const [name, rows] of Object.entries(expected.tables)) {
    expect(actual.tables[name]!.length, name).toBe(rows.length);
    expect(actual.tables[name], name).toEqual(rows);
  }
  expect(actual.sequences).toEqual(expected.sequences);
  expect(actual.files).toEqual(expected.files);
  expect(actual.payouts).toEqual(expected.payouts);
  if (opts.key !== false) expect(actual.key).toEqual(expected.key);
}

let source: Config;
let expected: Contents;
let pendingJobs: { name: string; data: object; singleton_key: string | null }[];
let made: BackupResult;

beforeAll(async () => {
  source = embeddedConfig();
  const database = await createDatabase(source.databaseUrl);
  const jobs = new PgBossJobQueue(database, quiet as never, {
    schedule: false,
    statsIntervalSeconds: 0,
  });
  try {
    await runMigrations(database);
    await jobs.start();
    const seeded = await seedDemo({ config: source, database, log: quiet, jobs });
    expect(seeded.skipped).toBe(false);
    pendingJobs = await queryRows(
      database.db,
      sql`select name, data, singleton_key from pgboss.job where state = 'created' order by created_on, id`,
    );
  } finally {
    await jobs.stop(5000);
    await database.close();
  }
  expected = await embeddedContents(source);
}, 600_000);

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('backup of an embedded deployment', () => {
  it('writes one archive whose manifest counts every table, object and queued job', async () => {
    made = await backup({ config: source, out: path.join(tmp, 'seed.tar') });
    const { manifest } = made;
    expect(manifest.source).toEqual({ database: 'pglite', storage: 'disk' });
    // The table list is the database's own: every table of the Drizzle schema is in it, but
    // the derived ones outside the public schema (search.bounty_prefixes and
    // bounty_prefix_pairs, refilled on restore).
    const drizzleTables = (Object.values(schema) as unknown[])
      .filter((v): v is PgTable => v instanceof PgTable)
      .map((t) => getTableConfig(t))
      .filter((t) => t.schema === undefined)
      .map((t) => t.name)
      .sort();
    const backedUp = manifest.tables.map((t) => t.name).sort();
    expect(backedUp).toEqual(expect.arrayContaining(drizzleTables));
    expect(backedUp).toEqual(
      Object.keys(expected.tables)
        .filter((t) => !t.includes('.'))
        .sort(),
    );
    for (const t of manifest.tables) expect(t.rows, t.name).toBe(expected.tables[t.name]!.length);
    expect(manifest.migrations).toHaveLength(
      expected.tables['drizzle.__drizzle_migrations']!.length,
    );
    expect(manifest.media.map((m) => `${m.visibility}/${m.key}`).sort()).toEqual(
      Object.keys(expected.files).sort(),
    );
    // Users, bounties, claims, media, messages and ledger rows: the seed's story is all there.
    const count = (name: string) => manifest.tables.find((t) => t.name === name)!.rows;
    for (const t of ['users', 'bounties', 'claims', 'media', 'messages', 'ledger_entries'])
      expect(count(t), t).toBeGreaterThan(0);
    expect(manifest.media.some((m) => m.key.endsWith('-p.mp4'))).toBe(true);
    expect(manifest.payoutFiles.length).toBeGreaterThan(0);
    expect(manifest.encryption.keyFileEntry).toBe('secret.key');
    expect(manifest.jobs.count).toBe(pendingJobs.length);
    expect(pendingJobs.length).toBeGreaterThan(0);
    // A plain tar: every entry, and the manifest, are there.
    const names = (await listTar(made.file)).map((e) => e.name);
    expect(names).toContain('manifest.json');
    expect(names.length).toBe(Object.keys(manifest.entries).length + 1);
    console.log(
      `demo seed backup: ${(made.bytes / 1024 / 1024).toFixed(1)} MiB in ${made.seconds.toFixed(1)} s`,
    );
  }, 120_000);

  it('restores into an empty embedded deployment: every table, sequence and file the same', async () => {
    const target = embeddedConfig();
    const jobs = new MemoryJobQueue();
    const res = await restore({ config: target, file: made.file, jobs });
    expect(res.rows).toBe(made.manifest.tables.reduce((s, t) => s + t.rows, 0));
    console.log(`demo seed restore (embedded): ${res.seconds.toFixed(1)} s`);
    expectSame(await embeddedContents(target), expected);
    // The queued one-off jobs are queued again, with their payloads and singleton keys.
    expect(jobs.sent.map((j) => [j.name, j.payload, j.opts?.singletonKey ?? null])).toEqual(
      pendingJobs.map((j) => [j.name, j.data, j.singleton_key]),
    );

    // Restoring again into the now non-empty deployment is refused and changes nothing.
    await expect(
      restore({ config: target, file: made.file, jobs: new MemoryJobQueue() }),
    ).rejects.toThrow(/target database is not empty.*nothing was restored/);
    expectSame(await embeddedContents(target), expected);
  }, 120_000);

  it('refuses a database with one row, before writing a file', async () => {
    const target = embeddedConfig();
    const t = await createTestDatabase();
    const storage = createStorage(target);
    try {
      await t.handle.db.execute(
        sql`insert into users (email, password_hash, role) values ('someone@example.com', 'x', 1)`,
      );
      const err = await restore({
        config: target,
        file: made.file,
        jobs: new MemoryJobQueue(),
        database: t.handle,
        storage,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BackupError);
      expect((err as Error).message).toMatch(/not empty \(users have rows\)/);
      const after = await contents(t.handle, storage, target);
      expect(after.files).toEqual({});
      expect(after.payouts).toEqual({});
      expect(after.key).toBeNull();
      expect(after.tables.users).toHaveLength(1);
      expect(Object.values(after.tables).flat()).toHaveLength(
        1 + expected.tables['drizzle.__drizzle_migrations']!.length,
      );
    } finally {
      await storage.close();
      await t.drop();
    }
  }, 60_000);

  it('refuses an ENCRYPTION_KEY that cannot open the backed-up fields', async () => {
    const target = embeddedConfig(undefined, {
      ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    });
    const t = await createTestDatabase();
    try {
      await expect(
        restore({
          config: target,
          file: made.file,
          jobs: new MemoryJobQueue(),
          database: t.handle,
        }),
      ).rejects.toThrow(
        new RegExp(`sealed with key ${made.manifest.encryption.keyId}.*nothing was restored`),
      );
      const storage = createStorage(target);
      for (const vis of ['public', 'private'] as const)
        for await (const o of storage.list(vis)) expect.fail(`unexpected object ${o.key}`);
      expect(fs.existsSync(path.join(target.dataDir, 'secret.key'))).toBe(false);
    } finally {
      await t.drop();
    }
  }, 60_000);

  it('refuses a damaged archive before anything is written', async () => {
    const damaged = path.join(tmp, 'damaged.tar');
    fs.copyFileSync(made.file, damaged);
    const entry = (await listTar(damaged)).find((e) => e.name.startsWith('media/private/'))!;
    const fd = fs.openSync(damaged, 'r+');
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, entry.offset + 10);
    b[0] = b[0]! ^ 0xff;
    fs.writeSync(fd, b, 0, 1, entry.offset + 10);
    fs.closeSync(fd);
    await expect(verifyBackup(damaged)).rejects.toThrow(
      new RegExp(`damaged.*${entry.name.replace(/[.]/g, '\\.')} \\(checksum\\)`),
    );

    const target = embeddedConfig();
    await expect(
      restore({ config: target, file: damaged, jobs: new MemoryJobQueue() }),
    ).rejects.toThrow(/the backup is damaged; nothing was restored/);
    // Not even the schema: the database has no table, the media folders no file.
    const database = await createDatabase(target.databaseUrl);
    expect(await listTables(database.db)).toEqual([]);
    await database.close();
    const storage = createStorage(target);
    for (const vis of ['public', 'private'] as const)
      for await (const o of storage.list(vis)) expect.fail(`unexpected object ${o.key}`);

    // A cut-off archive and something that is not a backup at all.
    const cut = path.join(tmp, 'cut.tar');
    fs.writeFileSync(cut, fs.readFileSync(made.file).subarray(0, 100_000));
    await expect(verifyBackup(cut)).rejects.toThrow(BackupError);
    await expect(verifyBackup(path.join(tmp, 'nope.tar'))).rejects.toThrow(/no backup file/);
  }, 60_000);

  it('fails loudly when an object the database refers to is missing from storage', async () => {
    const copy = embeddedConfig();
    fs.cpSync(source.dataDir, copy.dataDir, { recursive: true });
    const original = fs
      .readdirSync(path.join(copy.dataDir, 'media-private', 'originals'))
      .find((f) => f.startsWith('v-'))!;
    fs.rmSync(path.join(copy.dataDir, 'media-private', 'originals', original));
    const out = path.join(tmp, 'missing.tar');
    await expect(backup({ config: copy, out })).rejects.toThrow(
      new RegExp(`missing from storage: .*private:originals/${original}`),
    );
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
  }, 60_000);
});

describe('versions', () => {
  it('a backup from an older migration level restores, then the newer migrations run', async () => {
    const level = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).length;
    const older = await createDatabase('memory://');
    const config = embeddedConfig();
    const storage = createStorage(config);
    const file = path.join(tmp, 'older.tar');
    try {
      await migrateTo(older, level - 1);
      await older.db.execute(
        sql`insert into users (email, password_hash, role) values ('old@example.com', 'x', 1)`,
      );
      const res = await backup({ config, out: file, database: older, storage });
      expect(res.manifest.migrations).toHaveLength(level - 1);
    } finally {
      await older.close();
    }
    const target = await createDatabase('memory://');
    try {
      await restore({
        config: embeddedConfig(),
        file,
        jobs: new MemoryJobQueue(),
        database: target,
      });
      const rows = await queryRows<{ email: string }>(target.db, sql`select email from users`);
      expect(rows).toEqual([{ email: 'old@example.com' }]);
      const [m] = await queryRows<{ n: number }>(
        target.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(m!.n).toBe(level);
    } finally {
      await storage.close();
      await target.close();
    }
  }, 60_000);
});

describe('exact values', () => {
  it('bytea, jsonb, bigint, numeric, timestamps, arrays and text survive the row format', async () => {
    const t = await createTestDatabase();
    try {
      const { db } = t.handle;
      const ddl = (name: string) =>
        sql.raw(`create table ${name} (
          id bigint primary key, b bytea, j jsonb, js jsonb, n numeric, ts timestamptz,
          t timestamp, d date, f double precision, arr text[], tx text,
          up text generated always as (upper(tx)) stored)`);
      await db.execute(ddl('bk_types'));
      await db.execute(ddl('bk_types_copy'));
      await db.execute(sql`insert into bk_types (id, b, j, js, n, ts, t, d, f, arr, tx) values
        (9223372036854775807, '\\x00ff10'::bytea, '{"a":[1,2.50,{"b":null}],"big":12345678901234567890}',
         '"just a string"', 12345678901234567890.000000000001, '2024-02-29 23:59:59.123456+00',
         '1999-12-31 23:59:59.999999', '0001-01-01', 0.1, '{"x,y","z\\"q",NULL}',
         E'line\\nbreak \\\\ tab\\t émoji 🎉 "quotes"'),
        (-1, '', '[]', 'null', -0.5, '1970-01-01 00:00:00+00', null, null, 1e308, '{}', ''),
        (2, null, null, null, null, null, null, null, null, null, null)`);
      const tables = await listTables(db);
      const from = tables.find((x) => x.name === 'bk_types')!;
      const to = tables.find((x) => x.name === 'bk_types_copy')!;
      expect(from.columns).not.toContain('up');
      const lines: string[] = [];
      await db.transaction(async (tx) => {
        for await (const l of exportRows(tx, from)) lines.push(l);
      });
      expect(lines).toHaveLength(3);
      await db.transaction(async (tx) => {
        expect(
          await importRows(
            tx,
            to,
            (async function* () {
              yield* lines;
            })(),
          ),
        ).toBe(3);
      });
      const read = (name: string) =>
        queryRows<{ j: string }>(
          db,
          sql.raw(`select row_to_json(x)::text as j from ${name} x order by id`),
        );
      expect(await read('bk_types_copy')).toEqual(await read('bk_types'));
      const [same] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from bk_types a join bk_types_copy b using (id)
            where a.b is not distinct from b.b and a.j is not distinct from b.j
              and a.n is not distinct from b.n and a.ts is not distinct from b.ts
              and a.arr is not distinct from b.arr and a.up is not distinct from b.up`,
      );
      expect(same!.n).toBe(3);
    } finally {
      await t.drop();
    }
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('PostgreSQL + S3', () => {
  let server: S3rver;
  let endpoint: string;
  const databases: string[] = [];

  beforeAll(async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir('s3'),
      configureBuckets: [{ name: 'bh-one' }, { name: 'bh-two' }],
    });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await server?.close();
  });

  /** A brand-new database with nothing in it, not even the schema. */
  async function emptyDatabase(): Promise<string> {
    const name = `bh_bk_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    databases.push(name);
    return withDatabase(pgUrl!, name);
  }

  function s3Config(url: string, bucket: string): Config {
    return embeddedConfig(dir('pg-data'), {
      DATABASE_URL: url,
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    });
  }

  async function s3Contents(config: Config): Promise<Contents> {
    const database = await createDatabase(config.databaseUrl, { poolSize: 2 });
    const storage = new S3Storage({
      bucket: config.S3_BUCKET!,
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    try {
      return await contents(database, storage, config);
    } finally {
      await storage.close();
      await database.close();
    }
  }

  it('embedded → PostgreSQL + S3 → backup → another PostgreSQL + S3: all the same', async () => {
    // Into a database migrated to the current level (the template of the test run).
    const first = await createTestDatabase();
    const one = s3Config(first.url, 'bh-one');
    await restore({ config: one, file: made.file, jobs: new MemoryJobQueue() });
    expectSame(await s3Contents(one), expected);
    // The S3 objects keep their types and caching.
    const res = await fetch(
      `${endpoint}/bh-one/${made.manifest.media.find((m) => m.visibility === 'public')!.key}`,
    );
    expect(res.headers.get('content-type')).toMatch(/^(image\/webp|video\/mp4)$/);
    expect(res.headers.get('cache-control')).toContain('immutable');

    const second = await backup({ config: one, out: path.join(tmp, 'pg.tar') });
    expect(second.manifest.source).toEqual({ database: 'postgres', storage: 's3' });
    console.log(
      `demo seed backup (PostgreSQL + S3): ${(second.bytes / 1024 / 1024).toFixed(1)} MiB in ${second.seconds.toFixed(1)} s`,
    );
    // Into a database with no schema at all.
    const two = s3Config(await emptyDatabase(), 'bh-two');
    const jobs = new MemoryJobQueue();
    await restore({ config: two, file: second.file, jobs });
    expectSame(await s3Contents(two), expected);

    await first.drop();
  }, 180_000);
});
