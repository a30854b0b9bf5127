/**
 * Instances that start at once on a new database (a release, `npm run cluster`) migrate one at
 * a time: without the advisory lock, one of two concurrent runs failed on
 * `CREATE SCHEMA IF NOT EXISTS "drizzle"` and its instance did not start. PostgreSQL only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../test/global-setup';
import { createDatabase, runMigrations } from './client';

const onPostgres = inject('dbMode') === 'postgres';

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.runIf(onPostgres)('migrations on PostgreSQL', () => {
  it('three instances migrating a new database at once all start, each migration applied once', async () => {
    const name = `bh_t_mig_${crypto.randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    const url = withDatabase(inject('pgAdminUrl'), name);
    const handles = await Promise.all([1, 2, 3].map(() => createDatabase(url, { poolSize: 2 })));
    try {
      const results = await Promise.allSettled(handles.map((h) => runMigrations(h)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const journal = JSON.parse(
        fs.readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      const { rows } = await handles[0]!.pool!.query(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(rows[0].n).toBe(journal.entries.length);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await admin(`drop database if exists ${name} with (force)`);
    }
  });
});
