/**
 * The embedded PostgreSQL (decision 0018): a real server in a folder, owned by the process that
 * started it, shared with guests, stopped cleanly, and found again with its data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../env';
import { embeddedPostgresOwner, openEmbeddedPostgres } from './embedded-postgres';

const dirs: string[] = [];
/** A fresh DATA_DIR (0700, as mkdtemp makes it: as root the server's user needs only its search bit). */
function dataDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-embedded-pg-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function query<T>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('embedded PostgreSQL', () => {
  it('creates the cluster, serves guests, stops on close and keeps the data for the next start', async () => {
    const dir = path.join(dataDir(), 'postgres');
    const owner = await openEmbeddedPostgres(dir);
    expect(owner.owned).toBe(true);
    expect(owner.url).toContain(`host=${encodeURIComponent(dir)}`);
    expect(embeddedPostgresOwner(dir)).toBe(process.pid);
    const [v] = await query<{ v: string }>(
      owner.url,
      "select current_setting('server_version_num') as v",
    );
    expect(Number(v!.v)).toBeGreaterThanOrEqual(150000);
    // The product's schema needs pg_trgm: the package ships the contrib extensions.
    await query(owner.url, 'create extension if not exists pg_trgm');
    await query(owner.url, 'create table kept (x int); insert into kept values (42)');
    // No TCP: only the unix socket.
    const [listen] = await query<{ l: string }>(
      owner.url,
      "select current_setting('listen_addresses') as l",
    );
    expect(listen!.l).toBe('');

    // A second opener (npm run backup while the product runs) is a guest of the same server.
    const guest = await openEmbeddedPostgres(dir);
    expect(guest.owned).toBe(false);
    expect(guest.pid).toBe(owner.pid);
    await guest.stop();
    expect(alive(owner.pid)).toBe(true);

    await owner.stop();
    expect(alive(owner.pid)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
    expect(embeddedPostgresOwner(dir)).toBeUndefined();

    const again = await openEmbeddedPostgres(dir);
    try {
      expect(again.owned).toBe(true);
      expect(await query<{ x: number }>(again.url, 'select x from kept')).toEqual([{ x: 42 }]);
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('a server whose owner died is stopped and started again by the next opener', async () => {
    const dir = path.join(dataDir(), 'postgres');
    const first = await openEmbeddedPostgres(dir);
    // As if its owner had been killed with -9: the owner file names a dead process.
    fs.writeFileSync(path.join(dir, 'owner.pid'), '999999999\n');
    const next = await openEmbeddedPostgres(dir);
    try {
      expect(next.owned).toBe(true);
      expect(next.pid).not.toBe(first.pid);
      expect(alive(first.pid)).toBe(false);
      expect(await query<{ one: number }>(next.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await next.stop();
      await first.stop();
    }
  }, 120_000);
});

describe('the embedded default', () => {
  it('is the embedded PostgreSQL in DATA_DIR/postgres; EMBEDDED_DB=pglite and PGlite data keep PGlite', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).databaseUrl).toBe(
      `embedded-postgres://${path.join(dir, 'postgres')}`,
    );
    expect(loadConfig({ DATA_DIR: dir, EMBEDDED_DB: 'pglite' }).databaseUrl).toBe(
      `pglite://${path.join(dir, 'db')}`,
    );
    // A DATA_DIR an earlier version filled with PGlite stays on it.
    fs.mkdirSync(path.join(dir, 'db'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'db', 'PG_VERSION'), '17\n');
    expect(loadConfig({ DATA_DIR: dir }).databaseUrl).toBe(`pglite://${path.join(dir, 'db')}`);
    expect(loadConfig({ DATA_DIR: dir, EMBEDDED_DB: 'postgres' }).databaseUrl).toMatch(
      /^embedded-postgres:\/\//,
    );
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://h/db' }).databaseUrl).toBe(
      'postgres://h/db',
    );
  });
});
