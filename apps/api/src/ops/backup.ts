/**
 * Backup and restore of a whole deployment (docs/decisions/0014-backup-and-restore.md):
 * the database (every table of the public schema, the migration level, the sequences), the
 * media objects, the payout files, the embedded encryption key and the queued one-off jobs,
 * in one tar file with a manifest of sha256 checksums. The same code serves the embedded
 * deployment (PGlite in DATA_DIR/db, media in DATA_DIR) and PostgreSQL + S3: it uses the
 * product's own configuration, database client and storage.
 *
 *   backup({ config, out }) → BackupResult     one consistent snapshot into `out`
 *   verifyBackup(file) → VerifiedBackup        every checksum, before anything is written
 *   restore({ config, file, jobs }) → RestoreResult   into an empty deployment only
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import {
  createDatabase,
  MIGRATIONS_DIR,
  queryRows,
  runMigrations,
  type DatabaseHandle,
  type DbOrTx,
} from '../db/client';
import type { Config } from '../env';
import { JOB_SCHEMA } from '../jobs/pg-boss-queue';
import type { JobQueue } from '../jobs/types';
import { loadFieldCipher } from '../lib/crypto';
import { storedObjects } from '../modules/media/media.service';
import { DiskPayoutProvider } from '../modules/payouts/payout-provider';
import { createStorage } from '../storage/create-storage';
import type { MediaStorage, Visibility } from '../storage/storage';
import { entryBuffer, entrySha256, entryStream, listTar, TarWriter, type TarEntry } from './tar';
import { embeddedInUse } from '../lib/embedded-lock';

export const BACKUP_FORMAT = 'bountyhunt-backup';
export const BACKUP_VERSION = 1;
const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';
const MANIFEST = 'manifest.json';
/** Rows per round trip when reading (cursor) and at most per insert statement. */
const BATCH_ROWS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  source: { database: 'pglite' | 'postgres'; storage: 'disk' | 's3' };
  /** The applied migrations (drizzle's bookkeeping), oldest first. */
  migrations: { hash: string; createdAt: number }[];
  /** Every table of the public schema, parents before children, with its row count. */
  tables: { name: string; rows: number; entry: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  media: {
    key: string;
    visibility: Visibility;
    contentType: string;
    cacheControl?: string;
    entry: string;
  }[];
  payoutFiles: { name: string; entry: string }[];
  /** DATA_DIR/secret.key when ENCRYPTION_KEY is not set; keyId names the key fields are sealed with. */
  encryption: { keyId: string | null; keyFileEntry: string | null };
  /** One-off jobs still queued at the snapshot (not the cron schedules). */
  jobs: { count: number; entry: string };
  /** Every other entry of the archive, with its size and sha256. */
  entries: Record<string, { size: number; sha256: string }>;
}

export interface BackupResult {
  file: string;
  bytes: number;
  seconds: number;
  manifest: Manifest;
}

interface Deployment {
  database: DatabaseHandle;
  storage: MediaStorage;
  close(): Promise<void>;
}

/** The database and storage of a configuration, or the ones handed in (left open then). */
async function open(
  config: Config,
  given: { database?: DatabaseHandle; storage?: MediaStorage },
): Promise<Deployment> {
  const database = given.database ?? (await createDatabase(config.databaseUrl, { poolSize: 2 }));
  const storage = given.storage ?? createStorage(config);
  return {
    database,
    storage,
    async close() {
      if (!given.storage) await storage.close();
      if (!given.database) await database.close();
    },
  };
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableInfo {
  name: string;
  /** Stored columns (generated ones are made again by the database). */
  columns: string[];
  primaryKey: string[];
}

/** The tables of the public schema, read from the catalog, parents before children. */
export async function listTables(db: DbOrTx): Promise<TableInfo[]> {
  const tables = await queryRows<{ name: string; columns: string[]; pk: string[] | null }>(
    db,
    sql`select c.relname as name,
          (select json_agg(a.attname order by a.attnum) from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
              and a.attgenerated = '') as columns,
          (select json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum))
             from pg_index i join pg_attribute a on a.attrelid = i.indrelid
              and a.attnum = any(i.indkey::int2[])
            where i.indrelid = c.oid and i.indisprimary) as pk
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
  );
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select ch.relname as child, pa.relname as parent
        from pg_constraint k
        join pg_class ch on ch.oid = k.conrelid join pg_namespace n on n.oid = ch.relnamespace
        join pg_class pa on pa.oid = k.confrelid
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const parents = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.filter(
      (t) => !placed.has(t.name) && [...parents.get(t.name)!].every((p) => placed.has(p)),
    );
    if (next.length === 0)
      throw new BackupError('the foreign keys of the public schema form a cycle');
    for (const t of next) {
      placed.add(t.name);
      ordered.push({ name: t.name, columns: t.columns ?? [], primaryKey: t.pk ?? [] });
    }
  }
  return ordered;
}

/**
 * A table's rows as JSON text, one per row, ordered by primary key. The database writes the
 * JSON (row_to_json) and reads it back (json_populate_recordset), so bigint, numeric, bytea,
 * jsonb and timestamps keep every digit: JavaScript never parses a value.
 */
export async function* exportRows(tx: DbOrTx, table: TableInfo): AsyncGenerator<string> {
  const cols = table.columns.map(ident).join(', ');
  const order = table.primaryKey.length
    ? ` order by ${table.primaryKey.map((c) => `r.${ident(c)}`).join(', ')}`
    : '';
  const cursor = `bk_${crypto.randomBytes(4).toString('hex')}`;
  await tx.execute(
    sql.raw(
      `declare ${cursor} no scroll cursor for select row_to_json(r)::text as j from (select ${cols} from public.${ident(table.name)}) r${order}`,
    ),
  );
  for (;;) {
    const rows = await queryRows<{ j: string }>(tx, sql.raw(`fetch ${BATCH_ROWS} from ${cursor}`));
    for (const r of rows) yield r.j;
    if (rows.length < BATCH_ROWS) break;
  }
  await tx.execute(sql.raw(`close ${cursor}`));
}

/** Inserts rows written by exportRows, in batches; returns how many. */
export async function importRows(
  tx: DbOrTx,
  table: TableInfo,
  lines: AsyncIterable<string>,
): Promise<number> {
  const cols = table.columns.map(ident).join(', ');
  const target = `public.${ident(table.name)}`;
  let batch: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.execute(
      sql`${sql.raw(`insert into ${target} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${target}, `)}${`[${batch.join(',')}]`}::json)`,
    );
    count += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const line of lines) {
    if (!line) continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return count;
}

async function migrationRows(db: DbOrTx): Promise<{ hash: string; createdAt: number }[]> {
  const [exists] = await queryRows<{ t: string | null }>(
    db,
    sql.raw(`select to_regclass('${MIGRATIONS_TABLE}')::text as t`),
  );
  if (!exists?.t) return [];
  const rows = await queryRows<{ hash: string; created_at: string | number }>(
    db,
    sql.raw(`select hash, created_at from ${MIGRATIONS_TABLE} order by id`),
  );
  return rows.map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

async function publicSequences(db: DbOrTx): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by 1`,
  );
  return rows.map((r) => r.name);
}

/** Where each kind of content goes in the archive. */
const entryOf = {
  table: (name: string) => `db/${name}.jsonl.gz`,
  migrations: 'db/drizzle.__drizzle_migrations.jsonl.gz',
  jobs: 'jobs.jsonl.gz',
  media: (visibility: Visibility, key: string) => `media/${visibility}/${key}`,
  payout: (name: string) => `payouts/${name}`,
  keyFile: 'secret.key',
};

async function gzipLines(file: string, lines: AsyncIterable<string>): Promise<number> {
  let n = 0;
  async function* text() {
    for await (const l of lines) {
      n += 1;
      yield `${l}\n`;
    }
  }
  await pipeline(Readable.from(text()), zlib.createGzip({ level: 6 }), fs.createWriteStream(file));
  return n;
}

export interface BackupOptions {
  config: Config;
  /** The archive to write; must not exist. */
  out: string;
  /** Already open database and storage (tests); made from `config` when absent. */
  database?: DatabaseHandle;
  storage?: MediaStorage;
  log?: (line: string) => void;
}

/**
 * One consistent backup: every table is read in one REPEATABLE READ, read-only transaction
 * (one snapshot; PGlite has a single connection, so its transaction is one too), then the
 * media objects are copied. Objects written after the snapshot are harmless extras; every
 * object a media row of the snapshot refers to must be there, or the backup fails.
 */
export async function backup(opts: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const out = path.resolve(opts.out);
  if (fs.existsSync(out)) throw new BackupError(`${out} already exists; choose another --out`);
  const busy = embeddedInUse(opts.config.databaseUrl, opts.config.dataDir);
  if (busy) throw new BackupError(busy);
  const partial = `${out}.partial`;
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'bh-backup-'));
  const dep = await open(opts.config, opts);
  let tar: TarWriter | undefined;
  try {
    const entries: Manifest['entries'] = {};
    // ---- the snapshot ------------------------------------------------------------------
    const snap = await dep.database.db.transaction(
      async (tx) => {
        const tables = await listTables(tx);
        const counts: Manifest['tables'] = [];
        for (const t of tables) {
          const rows = await gzipLines(path.join(work, `${t.name}.gz`), exportRows(tx, t));
          counts.push({ name: t.name, rows, entry: entryOf.table(t.name) });
        }
        const migrations = await migrationRows(tx);
        await gzipLines(
          path.join(work, 'migrations.gz'),
          (async function* () {
            const rows = await queryRows<{ j: string }>(
              tx,
              sql.raw(`select row_to_json(m)::text as j from ${MIGRATIONS_TABLE} m order by id`),
            );
            for (const r of rows) yield r.j;
          })(),
        );
        const sequences: Manifest['sequences'] = [];
        for (const name of await publicSequences(tx)) {
          const [s] = await queryRows<{ last_value: string | number; is_called: boolean }>(
            tx,
            sql.raw(`select last_value::text as last_value, is_called from public.${ident(name)}`),
          );
          sequences.push({ name, lastValue: String(s!.last_value), isCalled: s!.is_called });
        }
        const media = await queryRows<{
          key: string;
          kind: string;
          visibility: string;
          status: string;
          mime: string;
        }>(tx, sql`select key, kind, visibility, status, mime from media order by key`);
        const payoutFiles = await queryRows<{ file_name: string }>(
          tx,
          sql`select distinct file_name from payout_batches where file_name is not null order by 1`,
        );
        // Queued one-off jobs; cron schedules are made again when a server starts.
        const [boss] = await queryRows<{ t: string | null }>(
          tx,
          sql.raw(`select to_regclass('${JOB_SCHEMA}.job')::text as t`),
        );
        const jobs = boss?.t
          ? await queryRows<{ j: string }>(
              tx,
              sql.raw(
                `select json_build_object('name', name, 'data', data, 'singletonKey', singleton_key,
                   'startAfter', start_after)::text as j
                 from ${JOB_SCHEMA}.job
                 where state in ('created', 'retry', 'active')
                   and name not in (select name from ${JOB_SCHEMA}.schedule)
                 order by created_on, id`,
              ),
            )
          : [];
        return { counts, migrations, sequences, media, payoutFiles, jobs: jobs.map((r) => r.j) };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    log(
      `database read: ${snap.counts.length} tables, ${snap.counts.reduce((n, t) => n + t.rows, 0)} rows`,
    );

    tar = await TarWriter.create(partial);
    const add = async (name: string, write: (t: TarWriter) => Promise<string>, size: number) => {
      entries[name] = { size, sha256: await write(tar!) };
    };
    for (const t of snap.counts) {
      const f = path.join(work, `${t.name}.gz`);
      await add(t.entry, (w) => w.addFile(t.entry, f), (await fsp.stat(f)).size);
    }
    const mf = path.join(work, 'migrations.gz');
    await add(
      entryOf.migrations,
      (w) => w.addFile(entryOf.migrations, mf),
      (await fsp.stat(mf)).size,
    );
    const jf = path.join(work, 'jobs.gz');
    await gzipLines(jf, Readable.from(snap.jobs));
    await add(entryOf.jobs, (w) => w.addFile(entryOf.jobs, jf), (await fsp.stat(jf)).size);

    // ---- media: every stored object, checked against what the snapshot refers to ----------
    const wanted = new Map<string, { contentType: string; cacheControl?: string }>();
    for (const row of snap.media)
      for (const o of storedObjects(row))
        wanted.set(`${o.visibility}:${o.key}`, {
          contentType: o.contentType,
          ...(o.cacheControl ? { cacheControl: o.cacheControl } : {}),
        });
    const media: Manifest['media'] = [];
    const missing: string[] = [];
    for (const visibility of ['public', 'private'] as const) {
      for await (const o of dep.storage.list(visibility)) {
        const body = await dep.storage.get(o.key, visibility);
        if (!body) continue; // deleted since it was listed (it was not in the snapshot then)
        const entry = entryOf.media(visibility, o.key);
        await add(entry, (w) => w.addStream(entry, o.size, body), o.size);
        const known = wanted.get(`${visibility}:${o.key}`);
        wanted.delete(`${visibility}:${o.key}`);
        media.push({
          key: o.key,
          visibility,
          // An object no row names (written after the snapshot): its type from its name.
          ...(known ?? { contentType: guessType(o.key) }),
          entry,
        });
      }
    }
    for (const k of wanted.keys()) missing.push(k);
    if (missing.length)
      throw new BackupError(
        `${missing.length} media object(s) the database refers to are missing from storage: ${missing.slice(0, 5).join(', ')}`,
      );
    log(`media copied: ${media.length} objects`);

    // ---- payout files and the embedded key ------------------------------------------------
    const payouts = new DiskPayoutProvider(opts.config.dataDir);
    const payoutFiles: Manifest['payoutFiles'] = [];
    for (const { file_name: name } of snap.payoutFiles) {
      const text = await payouts.read(name);
      if (text === null)
        throw new BackupError(`the payout file ${name} the database refers to is missing`);
      const entry = entryOf.payout(name);
      const buf = Buffer.from(text, 'utf8');
      await add(entry, (w) => w.addBuffer(entry, buf), buf.length);
      payoutFiles.push({ name, entry });
    }
    const encryption: Manifest['encryption'] = { keyId: null, keyFileEntry: null };
    const keyFile = path.join(opts.config.dataDir, 'secret.key');
    if (opts.config.ENCRYPTION_KEY) {
      encryption.keyId = loadFieldCipher(opts.config).currentKeyId;
    } else if (fs.existsSync(keyFile)) {
      encryption.keyId = loadFieldCipher(opts.config).currentKeyId;
      const buf = await fsp.readFile(keyFile);
      await add(entryOf.keyFile, (w) => w.addBuffer(entryOf.keyFile, buf), buf.length);
      encryption.keyFileEntry = entryOf.keyFile;
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      source: { database: dep.database.kind, storage: dep.storage.kind },
      migrations: snap.migrations,
      tables: snap.counts,
      sequences: snap.sequences,
      media,
      payoutFiles,
      encryption,
      jobs: { count: snap.jobs.length, entry: entryOf.jobs },
      entries,
    };
    await tar.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)));
    await tar.close();
    tar = undefined;
    await fsp.rename(partial, out);
    const { size } = await fsp.stat(out);
    return { file: out, bytes: size, seconds: (performance.now() - started) / 1000, manifest };
  } catch (err) {
    await tar?.abort();
    await fsp.rm(partial, { force: true });
    throw err;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
    await dep.close();
  }
}

function guessType(key: string): string {
  if (key.endsWith('.webp')) return 'image/webp';
  if (key.endsWith('.mp4')) return 'video/mp4';
  return 'application/octet-stream';
}

export interface VerifiedBackup {
  file: string;
  manifest: Manifest;
  entries: Map<string, TarEntry>;
}

/** Reads the whole archive and checks every entry against the manifest; throws BackupError. */
export async function verifyBackup(file: string): Promise<VerifiedBackup> {
  let list: TarEntry[];
  try {
    list = await listTar(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BackupError(`no backup file at ${file}`);
    throw new BackupError(`${file}: ${(err as Error).message}`);
  }
  const entries = new Map(list.map((e) => [e.name, e]));
  const m = entries.get(MANIFEST);
  if (!m) throw new BackupError(`${file} is not a BountyHunt backup (no manifest)`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse((await entryBuffer(file, m)).toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`${file}: the manifest is not readable`);
  }
  if (manifest.format !== BACKUP_FORMAT)
    throw new BackupError(`${file} is not a BountyHunt backup`);
  if (manifest.version !== BACKUP_VERSION)
    throw new BackupError(
      `${file} is backup format version ${manifest.version}; this version reads ${BACKUP_VERSION}`,
    );
  const bad: string[] = [];
  for (const [name, want] of Object.entries(manifest.entries)) {
    const e = entries.get(name);
    if (!e) bad.push(`${name} (missing)`);
    else if (e.size !== want.size) bad.push(`${name} (size)`);
    else if ((await entrySha256(file, e)) !== want.sha256) bad.push(`${name} (checksum)`);
  }
  for (const name of entries.keys())
    if (name !== MANIFEST && !(name in manifest.entries)) bad.push(`${name} (not in the manifest)`);
  if (bad.length)
    throw new BackupError(
      `the backup is damaged; nothing was restored. ${bad.length} bad entr${bad.length === 1 ? 'y' : 'ies'}: ${bad.slice(0, 5).join(', ')}`,
    );
  return { file, manifest, entries };
}

async function* entryLines(file: string, entry: TarEntry): AsyncGenerator<string> {
  const rl = readline.createInterface({
    input: entryStream(file, entry).pipe(zlib.createGunzip()),
    crlfDelay: Infinity,
  });
  for await (const line of rl) if (line) yield line;
}

export interface RestoreOptions {
  config: Config;
  file: string;
  /** Where the backed-up queued jobs are sent again (the server's durable queue). */
  jobs: JobQueue;
  database?: DatabaseHandle;
  storage?: MediaStorage;
  log?: (line: string) => void;
}

export interface RestoreResult {
  seconds: number;
  rows: number;
  objects: number;
  jobs: number;
  manifest: Manifest;
}

/** The product's migrations, cut after the first `level` (a drizzle folder of its own). */
async function migrationsUpTo(level: number): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bh-migrations-'));
  await fsp.cp(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await fsp.readFile(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, level);
  await fsp.writeFile(journalFile, JSON.stringify(journal));
  return dir;
}

export async function migrateTo(database: DatabaseHandle, level: number): Promise<void> {
  const dir = await migrationsUpTo(level);
  try {
    if (database.kind === 'postgres') {
      const { migrate } = await import('drizzle-orm/node-postgres/migrator');
      await migrate(database.db as never, { migrationsFolder: dir });
    } else {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(database.db as never, { migrationsFolder: dir });
    }
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Restores a verified backup into an empty deployment: refuses (and writes nothing) when the
 * archive is damaged, when the target database holds any row, or when it is at a newer
 * migration level than the backup. Then: media objects and files, the schema at the
 * backup's level, every row in one transaction (parents first) with the sequences, the
 * remaining migrations, and the queued jobs.
 */
export async function restore(opts: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const busy = embeddedInUse(opts.config.databaseUrl, opts.config.dataDir);
  if (busy) throw new BackupError(busy);
  const { file, manifest, entries } = await verifyBackup(path.resolve(opts.file));
  log(`backup verified: ${Object.keys(manifest.entries).length} entries, checksums good`);

  // ---- what this code can restore ---------------------------------------------------------
  const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  const level = manifest.migrations.length;
  if (level > known.length || manifest.migrations.some((m, i) => m.hash !== known[i]!.hash))
    throw new BackupError(
      'the backup was made by a newer or different version of BountyHunt (its migrations are unknown here); restore it with that version',
    );

  const dep = await open(opts.config, opts);
  try {
    const { db } = dep.database;
    // ---- the target must be empty --------------------------------------------------------
    const targetMigrations = await migrationRows(db);
    const present = await listTables(db);
    const withRows: string[] = [];
    for (const t of present) {
      const [r] = await queryRows<{ any: boolean }>(
        db,
        sql.raw(`select exists (select 1 from public.${ident(t.name)}) as any`),
      );
      if (r?.any) withRows.push(t.name);
    }
    if (withRows.length)
      throw new BackupError(
        `the target database is not empty (${withRows.slice(0, 5).join(', ')}${withRows.length > 5 ? ', …' : ''} have rows); nothing was restored. Restore into a new, empty database (DATABASE_URL) or a new DATA_DIR.`,
      );
    if (targetMigrations.length === 0 && present.length > 0)
      throw new BackupError(
        'the target database has tables but no BountyHunt migrations; nothing was restored. Restore into a new, empty database.',
      );
    if (
      targetMigrations.length > level ||
      targetMigrations.some((m, i) => m.hash !== known[i]?.hash)
    )
      throw new BackupError(
        `the target database is at a newer migration level (${targetMigrations.length}) than the backup (${level}); nothing was restored. Restore into a new, empty database, then start the server to migrate.`,
      );

    // ---- the encryption key --------------------------------------------------------------
    const keyFile = path.join(opts.config.dataDir, 'secret.key');
    const { keyId, keyFileEntry } = manifest.encryption;
    if (keyId && opts.config.ENCRYPTION_KEY && !loadFieldCipher(opts.config).knows(keyId))
      throw new BackupError(
        `the backup's bank and tax fields are sealed with key ${keyId}, which this configuration does not have; nothing was restored. Set ENCRYPTION_KEY (or add it to ENCRYPTION_KEY_PREVIOUS)${keyFileEntry ? ' to the key in the backup’s secret.key' : ' to the ENCRYPTION_KEY of the backed-up deployment'}.`,
      );
    if (keyId && !opts.config.ENCRYPTION_KEY && !keyFileEntry)
      throw new BackupError(
        `the backup's bank and tax fields are sealed with key ${keyId} (the backed-up deployment's ENCRYPTION_KEY); nothing was restored. Set ENCRYPTION_KEY to it.`,
      );

    // ---- files first: a failure here leaves the database empty, so the restore can run again
    for (const m of manifest.media) {
      await dep.storage.put(m.key, entryStream(file, entries.get(m.entry)!), {
        contentType: m.contentType,
        visibility: m.visibility,
        ...(m.cacheControl ? { cacheControl: m.cacheControl } : {}),
      });
    }
    const payouts = new DiskPayoutProvider(opts.config.dataDir);
    for (const p of manifest.payoutFiles) {
      const text = (await entryBuffer(file, entries.get(p.entry)!)).toString('utf8');
      await payouts.send({ name: p.name, text });
    }
    if (keyFileEntry && !opts.config.ENCRYPTION_KEY) {
      // The target's database is empty, so nothing was sealed with a key it may have made.
      await fsp.mkdir(opts.config.dataDir, { recursive: true });
      await fsp.writeFile(keyFile, await entryBuffer(file, entries.get(keyFileEntry)!), {
        mode: 0o600,
      });
    }
    log(
      `files written: ${manifest.media.length} media objects, ${manifest.payoutFiles.length} payout files`,
    );

    // ---- the database: the backup's schema, its rows, then the newer migrations ------------
    await migrateTo(dep.database, level);
    const tables = await listTables(db);
    const names = new Set(tables.map((t) => t.name));
    const unknown = manifest.tables.filter((t) => !names.has(t.name)).map((t) => t.name);
    if (unknown.length)
      throw new BackupError(`the backup has tables this schema lacks: ${unknown.join(', ')}`);
    let rows = 0;
    await db.transaction(async (tx) => {
      const inBackup = new Map(manifest.tables.map((t) => [t.name, t]));
      for (const t of tables) {
        const b = inBackup.get(t.name);
        if (!b) continue;
        const n = await importRows(tx, t, entryLines(file, entries.get(b.entry)!));
        if (n !== b.rows)
          throw new BackupError(`${t.name}: the backup lists ${b.rows} rows but holds ${n}`);
        rows += n;
      }
      for (const s of manifest.sequences) {
        await tx.execute(
          sql`select setval(${`public.${ident(s.name)}`}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`,
        );
      }
    });
    await runMigrations(dep.database);
    log(`database restored: ${rows} rows`);

    // ---- queued jobs, sent again --------------------------------------------------------
    let jobs = 0;
    for await (const line of entryLines(file, entries.get(manifest.jobs.entry)!)) {
      const j = JSON.parse(line) as {
        name: string;
        data: object | null;
        singletonKey: string | null;
        startAfter: string | null;
      };
      await opts.jobs.send(j.name, j.data ?? {}, {
        ...(j.singletonKey ? { singletonKey: j.singletonKey } : {}),
        ...(j.startAfter ? { startAfter: new Date(j.startAfter) } : {}),
      });
      jobs += 1;
    }
    return {
      seconds: (performance.now() - started) / 1000,
      rows,
      objects: manifest.media.length,
      jobs,
      manifest,
    };
  } finally {
    await dep.close();
  }
}
