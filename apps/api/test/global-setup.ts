/**
 * Migrates once per run, then every test file starts from that state:
 * PGlite from a dumped data dir, PostgreSQL (TEST_DATABASE_URL) from a template database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, runMigrations } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    dbMode: 'pglite' | 'postgres';
    pgliteSnapshot: string;
    pgAdminUrl: string;
    pgTemplate: string;
    runId: string;
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const runId = crypto.randomBytes(4).toString('hex');
  project.provide('runId', runId);
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const template = `bh_tmpl_${runId}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const handle = await createDatabase(withDatabase(adminUrl, template), { poolSize: 1 });
    await runMigrations(handle);
    await handle.close();
    project.provide('dbMode', 'postgres');
    project.provide('pgAdminUrl', adminUrl);
    project.provide('pgTemplate', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`bh_t_${runId}_%`, template],
      );
      for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.end();
    };
  }
  const handle = await createDatabase('memory://');
  await runMigrations(handle);
  const dump = await handle.pglite!.dumpDataDir('none');
  const file = path.join(os.tmpdir(), `bh-pglite-${runId}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('dbMode', 'pglite');
  project.provide('pgliteSnapshot', file);
  project.provide('pgAdminUrl', '');
  project.provide('pgTemplate', '');
  return () => fs.rmSync(file, { force: true });
}
