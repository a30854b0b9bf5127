/**
 * `npm run bench:admin [-- --rows N] [--db postgres|pglite]`: the operations console's tables at
 * a million rows (issue 17: "Tables page through server-side results and survive 1,000,000
 * rows"). Loads N users, audit rows, reports and identity submissions (default 1,000,000
 * each) into a fresh database, builds the product's app (the composition root, as the server
 * does), signs an admin in past the second factor, and times each console list through the
 * app: the first page, a page deep in the list (reached by following x-next-cursor), and each
 * filter. Prints the median and p95 of repeated runs and writes
 * bench/results/admin-tables-<time>.{json,md}.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { buildApp, createLogger } from '../src/app';
import { createRoot } from '../src/composition';
import { createDatabase, runMigrations, type DatabaseHandle } from '../src/db/client';
import { loadConfig } from '../src/env';
import { MemoryJobQueue } from '../src/jobs/memory-queue';
import { hashPassword } from '../src/lib/password';

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsDir = path.resolve(here, '../../../bench/results');

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    db: { type: 'string', default: 'postgres' },
    runs: { type: 'string', default: '25' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const PASSWORD = 'Bench-admin1!';

interface Case {
  name: string;
  /** The list's path with its filters; `deep` follows x-next-cursor that many pages first. */
  path: string;
  deep?: number;
}

/** Every console list and filter; each must answer 200 with rows. */
function cases(): Case[] {
  const q = (p: string) => p;
  return [
    { name: 'audit log, newest', path: q('/admin/audit?limit=50') },
    { name: 'audit log, 20 pages deep', path: q('/admin/audit?limit=50'), deep: 20 },
    { name: 'audit log by action', path: q('/admin/audit?action=user.grant_silver&limit=50') },
    { name: 'audit log by actor', path: q('/admin/audit?actorId=1&limit=50') },
    {
      name: 'audit log by target',
      path: q('/admin/audit?targetType=user&targetId=4242&limit=50'),
    },
    { name: 'dashboard', path: '/admin/dashboard' },
    { name: 'users, newest', path: q('/admin/users?limit=50') },
    { name: 'users, 20 pages deep', path: q('/admin/users?limit=50'), deep: 20 },
    { name: 'users by id', path: q('/admin/users?q=424242') },
    { name: 'users by e-mail prefix', path: q('/admin/users?q=user4242&limit=50') },
    { name: 'users by handle prefix', path: q('/admin/users?q=hunter99&limit=50') },
    { name: "a user's page", path: '/admin/users/4242' },
    { name: 'identity queue, oldest first', path: q('/admin/identities?limit=50') },
    { name: 'identity queue, 20 pages deep', path: q('/admin/identities?limit=50'), deep: 20 },
    { name: 'reports queue, oldest first', path: q('/admin/reports?limit=50') },
    { name: 'reports queue, 20 pages deep', path: q('/admin/reports?limit=50'), deep: 20 },
    { name: 'reports queue, most reported', path: q('/admin/reports?sort=most&limit=50') },
    {
      name: 'reports queue, most, 20 pages deep',
      path: q('/admin/reports?sort=most&limit=50'),
      deep: 20,
    },
    { name: 'reports queue by type', path: q('/admin/reports?targetType=claim&limit=50') },
    { name: "one item's reports", path: q('/admin/reports/claim/1?limit=50') },
  ];
}

async function openDatabase(): Promise<{
  handle: DatabaseHandle;
  url: string;
  drop: () => Promise<void>;
}> {
  if (args.db === 'pglite') {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'bh-admin-bench-'));
    const handle = await createDatabase(dir);
    return {
      handle,
      url: dir,
      drop: async () => {
        await handle.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `bh_admin_bench_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: args.pg });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(args.pg);
  u.pathname = `/${name}`;
  const handle = await createDatabase(u.toString(), { poolSize: 4 });
  return {
    handle,
    url: u.toString(),
    drop: async () => {
      await handle.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function load(handle: DatabaseHandle, adminHash: string) {
  const db = handle.db;
  const n = ROWS;
  const steps: [string, ReturnType<typeof sql>][] = [
    [
      'users',
      sql`insert into users (email, password_hash, role, handle, silver, created_at)
          select 'user' || g || '@bench.test', 'x', case when g % 3 = 0 then 2 else 1 end,
                 'hunter' || g, (g % 500), now() - (g || ' seconds')::interval
          from generate_series(1, ${n}) g`,
    ],
    [
      'the admin',
      sql`insert into users (email, password_hash, role) values ('admin@bench.test', ${adminHash}, 4)`,
    ],
    [
      'audit log',
      sql`insert into audit_log (actor_id, action, target_type, target_id, before, after, ip, created_at)
          select 1 + (g % 20),
                 (array['admin.sign_in','identity.approve','identity.reject','user.suspend',
                        'user.unsuspend','user.grant_silver','report.hide','report.keep'])[1 + g % 8],
                 'user', (g % ${n})::text, '{"silver": 1}'::jsonb, '{"silver": 2}'::jsonb,
                 '10.0.0.' || (g % 250), now() - ((${n} - g) || ' seconds')::interval
          from generate_series(1, ${n}) g`,
    ],
    [
      'identity submissions',
      sql`insert into identity_submissions (user_id, id_front_key, id_selfie_key, status, decided_at, created_at)
          select 1 + (g % ${n}), 'i-front' || g || '-800x500', 'i-selfie' || g || '-600x800',
                 case when g % 100 = 0 then 'pending' when g % 7 = 0 then 'rejected' else 'approved' end,
                 case when g % 100 = 0 then null else now() - ((${n} - g) || ' seconds')::interval end,
                 now() - ((${n} - g) || ' seconds')::interval - interval '1 hour'
          from generate_series(1, ${n}) g`,
    ],
    [
      'reports',
      sql`insert into reports (reporter_id, target_type, target_id, reason, status, created_at)
          select 1 + (g % ${n}), (array['claim','post','hunter','bounty'])[1 + g % 4], 1 + (g % (${n} / 5)),
                 'spam', case when g % 20 = 0 then 'open' when g % 2 = 0 then 'kept' else 'hidden' end,
                 now() - ((${n} - g) || ' seconds')::interval
          from generate_series(1, ${n}) g
          on conflict do nothing`,
    ],
  ];
  for (const [name, step] of steps) {
    const t0 = performance.now();
    await db.execute(step);
    console.log(`  loaded ${name} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await db.execute(sql`analyze`);
}

function quantile(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

async function main() {
  console.log(`# admin tables bench: ${ROWS.toLocaleString('en-US')} rows per table on ${args.db}`);
  const database = await openDatabase();
  try {
    await runMigrations(database.handle);
    await load(database.handle, await hashPassword(PASSWORD));
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ALLOW: '127.0.0.1,::1',
    });
    const log = createLogger(config, { write: () => true });
    const root = createRoot({ config, database: database.handle, log, jobs: new MemoryJobQueue() });
    const app = await buildApp(root, log);
    const login = await app.inject({
      method: 'POST',
      url: '/auth',
      payload: { email: 'admin@bench.test', password: PASSWORD },
    });
    const auth = { authorization: `Bearer ${login.json().token}` };
    const enrol = await app.inject({ method: 'POST', url: '/admin/totp/enrol', headers: auth });
    const secret = new URL(enrol.json().otpauthUrl).searchParams.get('secret')!;
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const confirm = await app.inject({
      method: 'POST',
      url: '/admin/totp/confirm',
      headers: auth,
      payload: { code: totp.generate() },
    });
    if (confirm.statusCode !== 204) throw new Error(`confirm answered ${confirm.statusCode}`);

    const results: { name: string; path: string; rows: number; medianMs: number; p95Ms: number }[] =
      [];
    for (const c of cases()) {
      let url = c.path;
      for (let i = 0; i < (c.deep ?? 0); i++) {
        const page = await app.inject({ method: 'GET', url, headers: auth });
        const next = page.headers['x-next-cursor'];
        if (!next) throw new Error(`${c.name}: no page ${i + 2}`);
        url = `${c.path}${c.path.includes('?') ? '&' : '?'}cursor=${next}`;
      }
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: auth });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
        const body = res.json();
        rows = Array.isArray(body) ? body.length : 1;
      }
      times.sort((a, b) => a - b);
      const r = {
        name: c.name,
        path: url.length > 90 ? `${url.slice(0, 87)}…` : url,
        rows,
        medianMs: Number(quantile(times, 0.5).toFixed(2)),
        p95Ms: Number(quantile(times, 0.95).toFixed(2)),
      };
      if (rows === 0) throw new Error(`${c.name}: an empty page proves nothing`);
      results.push(r);
      console.log(
        `  ${r.name.padEnd(40)} ${String(r.rows).padStart(4)} rows  median ${r.medianMs} ms  p95 ${r.p95Ms} ms`,
      );
    }
    await app.close();
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    fs.mkdirSync(resultsDir, { recursive: true });
    const base = path.join(resultsDir, `admin-tables-${args.db}-${stamp}`);
    fs.writeFileSync(
      `${base}.json`,
      JSON.stringify({ rows: ROWS, db: args.db, runs: RUNS, results }, null, 2),
    );
    fs.writeFileSync(
      `${base}.md`,
      [
        `# Admin tables at ${ROWS.toLocaleString('en-US')} rows per table (${args.db}, ${RUNS} runs each)`,
        '',
        '| list | rows answered | median ms | p95 ms |',
        '|---|---|---|---|',
        ...results.map((r) => `| ${r.name} | ${r.rows} | ${r.medianMs} | ${r.p95Ms} |`),
        '',
      ].join('\n'),
    );
    console.log(`results: ${path.relative(process.cwd(), base)}.{json,md}`);
  } finally {
    await database.drop();
  }
}

await main();
