/**
 * Builds the app in-process on a fresh database for the calling test file
 * (fastify/demo test/helper.ts), with a controllable clock and captured logs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, createLogger } from '../src/app';
import { createRoot, type Root, type RootParts } from '../src/composition';
import { createDatabase, type DatabaseHandle } from '../src/db/client';
import { loadConfig, type Config } from '../src/env';
import { MemoryJobQueue } from '../src/jobs/memory-queue';
import { ManualClock } from '../src/lib/clock';
import { withDatabase } from './global-setup';

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database on PGlite or, with TEST_DATABASE_URL, on PostgreSQL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (inject('dbMode') === 'postgres') {
    const admin = inject('pgAdminUrl');
    const name = `bh_t_${inject('runId')}_${crypto.randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name} template ${inject('pgTemplate')}`);
    await client.end();
    const url = withDatabase(admin, name);
    const handle = await createDatabase(url, { poolSize: 20 });
    return {
      handle,
      url,
      async drop() {
        await handle.close();
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  const handle = await createDatabase('memory://', { loadDataDir: new Blob([snapshot]) });
  return { handle, url: 'memory://', drop: () => handle.close() };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: fs.mkdtempSync('/tmp/bh-test-'),
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'info',
    // Tests read their own writes at once; feed-cache tests turn it on.
    FEED_CACHE_MS: '0',
    PAGE_CACHE_MS: '0',
    // Tests change users and sessions in SQL too; session-cache tests turn it on.
    SESSION_CACHE_MS: '0',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  /** The app's composition root: services, adapters, job definitions. */
  root: Root;
  db: TestDatabase;
  clock: ManualClock;
  /** Jobs the app queued; run them with `runJobs`. */
  jobs: MemoryJobQueue;
  /** Runs queued jobs (all, or those `pick` accepts) with the root's definitions. */
  runJobs(pick?: (job: { name: string }) => boolean): Promise<number>;
  /** Runs one job definition by name now, as the queue would. */
  runJob(name: string, payload?: object): Promise<void>;
  config: Config;
  /** Every log line written so far, raw JSON. */
  logs: string[];
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    clock?: ManualClock;
    /** Other parts for the root (a bucket, a gateway double, a Redis-backed rate limiter…). */
    parts?: Partial<
      Pick<RootParts, 'storage' | 'gateway' | 'rateLimiter' | 'mailer' | 'cipher' | 'bus'>
    >;
  } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const clock = opts.clock ?? new ManualClock(new Date());
  const config = testConfig(opts.env);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const log = createLogger(config, logStream);
  const jobs = new MemoryJobQueue();
  const root = createRoot({ config, database: db.handle, log, clock, jobs, ...opts.parts });
  const app = await buildApp(root, log);
  await app.ready();
  return {
    app,
    root,
    db,
    clock,
    jobs,
    runJobs: (pick) => jobs.runPending(root.jobDefinitions, pick),
    async runJob(name, payload = {}) {
      const def = root.jobDefinitions.find((d) => d.name === name);
      if (!def) throw new Error(`no job ${name}`);
      await def.handler(payload, { attempt: 1, lastAttempt: true });
    },
    config,
    logs,
    async close() {
      await app.close();
      await root.services.auth.flushTouches();
      await root.storage.close();
      await db.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

let seq = 0;
export function uniqueEmail(prefix = 'user'): string {
  seq += 1;
  return `${prefix}${seq}.${crypto.randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'Secret-pass1!';

/** Registers and signs in through the API (epic-stack playwright-utils style). */
export async function signUp(
  app: FastifyInstance,
  opts: { hunter?: boolean; email?: string; password?: string } = {},
): Promise<{
  token: string;
  userId: number;
  email: string;
  password: string;
  auth: { authorization: string };
}> {
  const email = opts.email ?? uniqueEmail(opts.hunter ? 'hunter' : 'member');
  const password = opts.password ?? PASSWORD;
  const reg = await app.inject({
    method: 'POST',
    url: '/user',
    payload: { email, password, hunter: !!opts.hunter },
  });
  if (reg.statusCode !== 200) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const login = await app.inject({ method: 'POST', url: '/auth', payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const token = login.json().token as string;
  return {
    token,
    userId: reg.json().userId,
    email,
    password,
    auth: { authorization: `Bearer ${token}` },
  };
}
