/**
 * `npm run bench:tree [-- --duration S] [--connections N] [--port P] [--embedded]`: the memory of
 * the whole process tree `npm start` leaves running (npm, node and anything they
 * start), idle and under load.
 *
 * Runs `npm start` on a fresh DATA_DIR and, by default, a fresh database on the PostgreSQL of
 * BENCH_PG_URL (the embedded PostgreSQL with --embedded: its server processes are listed apart,
 * not in the tree's sum). Idle: the sum of RSS of the tree 10 s after /health answers. Load:
 * autocannon (N connections, no pipelining) on GET /user with member sessions, the tree sampled
 * every 250 ms; the peak sum is reported, with each process's own peak. Beside each RSS sum it
 * prints an estimate with the pages npm and the API share (the node binary) counted once, and
 * the PSS sum, which splits shared pages with processes outside the tree too and so reads low.
 * Ports: API on P (default 5780), web on P + 1. Database name prefix: BENCH_DB_PREFIX.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '../src/db/client';
import { addVoters } from './fixtures';
import { rawConnection } from './raw-db';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(here, '../../..');

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '5780' },
    embedded: { type: 'boolean', default: false },
  },
});
const apiPort = Number(args.port);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const log = (m: string) => console.log(`[tree] ${m}`);

interface Proc {
  pid: number;
  ppid: number;
  rssKb: number;
  /**
   * Proportional set size: each page shared with other processes counted as its share (npm and
   * the API map the same node binary, which an RSS sum counts twice). 0 where unreadable.
   */
  pssKb: number;
  /** Pages only this process maps, and pages it shares with any other process. */
  privateKb: number;
  sharedKb: number;
  cmd: string;
}

/** PSS, private and shared resident kB from smaps_rollup (zeros where unreadable). */
function rollup(pid: number): { pssKb: number; privateKb: number; sharedKb: number } {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return {
      pssKb: kb('Pss'),
      privateKb: kb('Private_Clean') + kb('Private_Dirty'),
      sharedKb: kb('Shared_Clean') + kb('Shared_Dirty'),
    };
  } catch {
    return { pssKb: 0, privateKb: 0, sharedKb: 0 };
  }
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    const cmd = fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ')
      .slice(0, 90);
    return { pid, ppid, rssKb: m ? Number(m[1]) : 0, pssKb: 0, privateKb: 0, sharedKb: 0, cmd };
  } catch {
    return undefined;
  }
}

/** Every process under `rootPid` (itself included), from /proc. */
function tree(rootPid: number): Proc[] {
  const all = fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map((e) => readProc(Number(e)))
    .filter((p): p is Proc => !!p);
  const out: Proc[] = [];
  const want = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!out.includes(p) && (want.has(p.pid) || want.has(p.ppid))) {
        out.push(p);
        want.add(p.pid);
        grew = true;
      }
  }
  return out;
}

const isPostgres = (p: Proc) => /\/bin\/postgres\b|^postgres:/.test(p.cmd);
const mb = (kb: number) => Math.round(kb / 1024);

interface Sample {
  sumKb: number;
  /**
   * The same processes' PSS summed: each shared page split between the processes that map it,
   * outside the tree too (the load generator is a node process as well), so this reads low.
   */
  pssSumKb: number;
  /**
   * Their private pages summed, plus the largest process's shared pages: the tree's own memory
   * with the pages npm and the API share (mostly the node binary) counted once, an estimate.
   */
  onceKb: number;
  pgKb: number;
  procs: Proc[];
}

function sample(rootPid: number): Sample {
  const procs = tree(rootPid);
  for (const p of procs) if (!isPostgres(p)) Object.assign(p, rollup(p.pid));
  const pgKb = procs.filter(isPostgres).reduce((n, p) => n + p.rssKb, 0);
  const own = procs.filter((p) => !isPostgres(p));
  const sumKb = own.reduce((n, p) => n + p.rssKb, 0);
  const pssSumKb = own.reduce((n, p) => n + p.pssKb, 0);
  const onceKb =
    own.reduce((n, p) => n + p.privateKb, 0) + Math.max(0, ...own.map((p) => p.sharedKb));
  return { sumKb, pssSumKb, onceKb, pgKb, procs };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-tree-'));
const dbName = `${process.env.BENCH_DB_PREFIX ?? 'bh_bench_'}tree_${Date.now().toString(36)}`;
let databaseUrl: string | undefined;
if (!args.embedded) {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(PG_ADMIN);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
}

const npm = spawn('npm', ['start'], {
  cwd: rootDir,
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    API_PORT: String(apiPort),
    WEB_PORT: String(apiPort + 1),
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ALLOW: '127.0.0.1,::1,::ffff:127.0.0.1',
  },
});
const output: string[] = [];
npm.stdout.on('data', (b: Buffer) => output.push(b.toString()));
npm.stderr.on('data', (b: Buffer) => output.push(b.toString()));
const base = `http://127.0.0.1:${apiPort}`;

async function stop() {
  try {
    process.kill(-npm.pid!, 'SIGTERM');
  } catch {
    // gone
  }
  const deadline = Date.now() + 30_000;
  while (npm.exitCode === null && npm.signalCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  if (!args.embedded) {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

try {
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (npm.exitCode !== null) throw new Error(`npm start exited:\n${output.join('')}`);
    const ok = await fetch(`${base}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`no /health:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Member sessions straight in the database (the server migrated it).
  const handle = await createDatabase(
    databaseUrl ?? `embedded-postgres://${path.join(dataDir, 'postgres')}`,
    { poolSize: 1 },
  );
  const q = await rawConnection(handle);
  const voters = await addVoters(q, 200);
  await q.release();
  await handle.close();

  await new Promise((r) => setTimeout(r, 10_000));
  const idle = sample(npm.pid!);
  log(
    `idle: ${idle.procs.length} processes, sum ${mb(idle.sumKb)} MB (shared pages once ~${mb(idle.onceKb)} MB, PSS ${mb(idle.pssSumKb)} MB; postgres ${mb(idle.pgKb)} MB)`,
  );
  for (const p of idle.procs) log(`  ${p.pid} ${mb(p.rssKb)} MB ${p.cmd}`);

  let peak = idle;
  let peakPssKb = idle.pssSumKb;
  let peakOnceKb = idle.onceKb;
  const perPid = new Map<number, Proc>();
  const timer = setInterval(() => {
    const s = sample(npm.pid!);
    if (s.sumKb > peak.sumKb) peak = s;
    peakPssKb = Math.max(peakPssKb, s.pssSumKb);
    peakOnceKb = Math.max(peakOnceKb, s.onceKb);
    for (const p of s.procs) if ((perPid.get(p.pid)?.rssKb ?? 0) < p.rssKb) perPid.set(p.pid, p);
  }, 250);
  let i = 0;
  const r = await autocannon({
    url: base,
    connections: Number(args.connections),
    pipelining: 1,
    duration: Number(args.duration),
    requests: [
      {
        method: 'GET',
        path: '/user',
        setupRequest: (req) => ({
          ...req,
          headers: { authorization: `Bearer ${voters[i++ % voters.length]!.token}` },
        }),
      },
    ],
  });
  clearInterval(timer);
  log(
    `load: GET /user, ${args.connections} connections, ${args.duration} s: ${Math.round(r.requests.average)} req/s, ` +
      `p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
  );
  log(
    `peak under load: sum ${mb(peak.sumKb)} MB over ${peak.procs.filter((p) => !isPostgres(p)).length} processes (postgres ${mb(peak.pgKb)} MB); with shared pages once ~${mb(peakOnceKb)} MB, PSS sum ${mb(peakPssKb)} MB`,
  );
  for (const p of peak.procs) log(`  ${p.pid} ${mb(p.rssKb)} MB ${p.cmd}`);
  const largest = [...perPid.values()].sort((a, b) => b.rssKb - a.rssKb)[0];
  if (largest) log(`largest process peak: ${mb(largest.rssKb)} MB ${largest.cmd}`);
  console.log(
    JSON.stringify({
      idleMb: mb(idle.sumKb),
      peakMb: mb(peak.sumKb),
      idleOnceMb: mb(idle.onceKb),
      peakOnceMb: mb(peakOnceKb),
      idlePssMb: mb(idle.pssSumKb),
      peakPssMb: mb(peakPssKb),
      processes: idle.procs.filter((p) => !isPostgres(p)).length,
      postgresIdleMb: mb(idle.pgKb),
      postgresPeakMb: mb(peak.pgKb),
      rps: Math.round(r.requests.average),
      p99: r.latency.p99,
    }),
  );
} finally {
  await stop();
}
