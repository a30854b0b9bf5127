/**
 * `npm run bench:tree [-- --duration S] [--connections N] [--port P] [--embedded]
 *   [--reads user,claim,bounty,rounds,vote] [--bounties B]`: the memory of the whole process
 * tree `npm start` leaves running (npm, node and anything they start), idle and under load.
 *
 * Runs `npm start` on a fresh DATA_DIR and, by default, a fresh database on the PostgreSQL of
 * BENCH_PG_URL (the embedded PostgreSQL with --embedded: its server processes are listed apart,
 * not in the tree's sum), then fills it as the bench's first phase (B bounties of 10 claims,
 * default 1,000: 10,000 claims; 8 bounties of 5 rounds × 50 claims; member sessions). Idle: the
 * sum of RSS of the tree 10 s after that. Load: autocannon (N connections, no pipelining) on
 * each of issue 21's part 1 reads in turn, with members' tokens (the current user, a claim, a
 * bounty, a bounty of 5 × 50, a vote of 1), S seconds each, the tree sampled every 250 ms; the
 * peak sum of each phase and of the whole run is reported, with each process's own peak. Beside
 * each RSS sum it prints an estimate with the pages npm and the API share (the node binary)
 * counted once, and the PSS sum, which splits shared pages with processes outside the tree too
 * and so reads low. Ports: API on P (default 5780), web on P + 1. Database name prefix:
 * BENCH_DB_PREFIX.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import { createDatabase } from '../src/db/client';
import { activeClaimIds, addRoundBounties, addVoters, sampleIds, voteRequest } from './fixtures';
import { generateData } from './generate';
import { rawConnection } from './raw-db';

const here = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.resolve(here, '../../..');

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '5780' },
    embedded: { type: 'boolean', default: false },
    /** Which of part 1's reads to load, in turn (comma-separated). */
    reads: { type: 'string', default: 'user,claim,bounty,rounds,vote' },
    /** Bounties generated (10 claims each) before the load: 1,000 is the bench's 10,000 claims. */
    bounties: { type: 'string', default: '1000' },
  },
});
const READS = ['user', 'claim', 'bounty', 'rounds', 'vote'] as const;
type Read = (typeof READS)[number];
const reads = args.reads.split(',').map((r) => r.trim()) as Read[];
for (const r of reads)
  if (!READS.includes(r)) {
    console.error(`--reads takes ${READS.join(', ')}; got "${r}"`);
    process.exit(2);
  }
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
  // Data as the bench's 10,000-claim phase has it (the server migrated the database), the
  // bench's bounties of 5 rounds × 50 claims, and member sessions, straight in the database.
  const handle = await createDatabase(
    databaseUrl ?? `embedded-postgres://${path.join(dataDir, 'postgres')}`,
    { poolSize: 1 },
  );
  const filled = await generateData(handle, {
    bounties: Number(args.bounties),
    claimsPerBounty: 10,
    members: 1000,
    imagePool: 4,
    seed: 1,
    mediaDir: path.join(dataDir, 'media'),
  });
  const q = await rawConnection(handle);
  const voters = await addVoters(q, 200);
  const roundIds = reads.includes('rounds') ? await addRoundBounties(q, 8) : [];
  const claimIds = await sampleIds(q, 'claims', 2000);
  const bountyIds = await sampleIds(q, 'bounties', 2000);
  const active = await activeClaimIds(q, 2000);
  await q.release();
  await handle.close();
  log(`data: ${filled.rows.claims ?? 0} claims in ${filled.seconds.toFixed(1)} s`);

  await new Promise((r) => setTimeout(r, 10_000));
  const idle = sample(npm.pid!);
  log(
    `idle: ${idle.procs.length} processes, sum ${mb(idle.sumKb)} MB (shared pages once ~${mb(idle.onceKb)} MB, PSS ${mb(idle.pssSumKb)} MB; postgres ${mb(idle.pgKb)} MB)`,
  );
  for (const p of idle.procs) log(`  ${p.pid} ${mb(p.rssKb)} MB ${p.cmd}`);

  let k = 0;
  const next = <T>(list: T[]) => list[k++ % list.length]!;
  const auth = () => ({ authorization: `Bearer ${next(voters).token}` });
  // Part 1's reads and the vote, each with a member's token, as `npm run bench` sends them.
  const requests: Record<Read, Request> = {
    user: { method: 'GET', path: '/user', setupRequest: (r) => ({ ...r, headers: auth() }) },
    claim: {
      method: 'GET',
      setupRequest: (r) => ({ ...r, path: `/claim/${next(claimIds)}`, headers: auth() }),
    },
    bounty: {
      method: 'GET',
      setupRequest: (r) => ({ ...r, path: `/bounty/${next(bountyIds)}`, headers: auth() }),
    },
    rounds: {
      method: 'GET',
      setupRequest: (r) => ({ ...r, path: `/bounty/${next(roundIds)}`, headers: auth() }),
    },
    vote: voteRequest(voters, active, () => k++),
  };

  let peak = idle;
  let peakPssKb = idle.pssSumKb;
  let peakOnceKb = idle.onceKb;
  const perPid = new Map<number, Proc>();
  const phases: { read: Read; rps: number; p99: number; peakMb: number; non2xx: number }[] = [];
  for (const read of reads) {
    const ids = {
      claim: claimIds,
      bounty: bountyIds,
      rounds: roundIds,
      vote: active,
      user: voters,
    };
    if (ids[read].length === 0) {
      log(`load: ${read} skipped: no ids to send`);
      continue;
    }
    let phasePeak = 0;
    const timer = setInterval(() => {
      const s = sample(npm.pid!);
      phasePeak = Math.max(phasePeak, s.sumKb);
      if (s.sumKb > peak.sumKb) peak = s;
      peakPssKb = Math.max(peakPssKb, s.pssSumKb);
      peakOnceKb = Math.max(peakOnceKb, s.onceKb);
      for (const p of s.procs) if ((perPid.get(p.pid)?.rssKb ?? 0) < p.rssKb) perPid.set(p.pid, p);
    }, 250);
    const r = await autocannon({
      url: base,
      connections: Number(args.connections),
      pipelining: 1,
      duration: Number(args.duration),
      requests: [requests[read]],
    });
    clearInterval(timer);
    phases.push({
      read,
      rps: Math.round(r.requests.average),
      p99: r.latency.p99,
      peakMb: mb(phasePeak),
      non2xx: r.non2xx,
    });
    log(
      `load: ${read}, ${args.connections} connections, ${args.duration} s: ${Math.round(r.requests.average)} req/s, ` +
        `p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}; tree peak ${mb(phasePeak)} MB`,
    );
  }
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
      phases,
    }),
  );
} finally {
  await stop();
}
