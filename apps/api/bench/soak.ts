/**
 * The soak of `npm run bench -- --soak 30m` (issue 20, part 7): two API processes (API only,
 * as `npm start` runs them) on one fresh PostgreSQL database, sharing Redis (rate limits and
 * the live bus) and an S3-compatible bucket (s3rver, its own process), driven for the given
 * time by a steady open-loop mixed load spread over both: feed and search pages, bounty, claim
 * and profile pages, the current user, votes, image uploads each followed by a claim through
 * the other instance, messages (to members whose event streams are open on either instance)
 * and the inbox. Every 10 s the RSS (VmRSS) of each instance is read from /proc.
 *
 * Reports, per minute and for the whole run: requests, errors by endpoint and status (any
 * answer that is not 2xx/3xx counts: no 4xx is expected, every request is valid and the rate
 * limits are set far above the load), p50/p99 per endpoint, messages delivered and lost,
 * streams dropped, and each instance's RSS growth from 1/6 of the run (minute 5 of 30) to its
 * end. Targets: 0 errors, growth < 10 %.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, runMigrations } from '../src/db/client';
import { hashToken } from '../src/lib/tokens';
import { photo } from '../test/media-fixtures';
import { readEvents } from '../test/live-support';
import { addVoters, checkVotes, SEARCH_TERM, type VoteCheck, type Voter } from './fixtures';
import { generateData } from './generate';
import { seedLive } from './live-bench';
import { rawConnection } from './raw-db';
import { benchNodeFlags, benchServerEnv } from './server-env';

export interface SoakOptions {
  durationMs: number;
  /** API instance A listens on basePort, B on basePort + 1, the S3 server on basePort + 2. */
  basePort: number;
  /** PostgreSQL server where the run's fresh database is created (and dropped). */
  pgAdminUrl: string;
  redisUrl: string;
  /** Multiplies every scenario's rate. */
  scale: number;
  /** Tiny data (the smoke run). */
  small: boolean;
  keep: boolean;
  rootDir: string;
  log(msg: string): void;
}

/** "30m", "90s", "2m", "1h", "1m30s" or plain seconds, in ms. */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const re = /(\d+(?:\.\d+)?)(h|m|s|ms)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(t))) {
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3_600_000 : m[2] === 'm' ? n * 60_000 : m[2] === 's' ? n * 1000 : n;
    consumed = re.lastIndex;
  }
  if (consumed !== t.length || consumed === 0 || total <= 0)
    throw new Error(`--soak: cannot read the duration "${text}" (e.g. 30m, 90s, 1h, 1m30s)`);
  return total;
}

// ---- the statistics ---------------------------------------------------------------------

interface Tally {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  latencies: number[];
  perInstance: [number, number];
}

const newTally = (): Tally => ({
  requests: 0,
  errors: 0,
  statuses: {},
  latencies: [],
  perInstance: [0, 0],
});

export interface EndpointFigures {
  endpoint: string;
  requests: number;
  perInstance: [number, number];
  errors: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

export interface MinuteFigures {
  minute: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  /** The slowest endpoint's p99 in that minute. */
  worstP99: { endpoint: string; p99: number };
  rssMb: [number, number];
  /** CPU time each instance used in that minute, % of one core. */
  cpuPct: [number, number];
  messagesDelivered: number;
  endpoints: EndpointFigures[];
}

export interface Sample {
  t: number;
  a: number;
  b: number;
  cpuA: number;
  cpuB: number;
}

export interface TimelineFigures {
  t: number;
  requests: [number, number];
  p99: [number, number];
  clientLagMaxMs: number;
}

export interface InstanceMemory {
  name: 'A' | 'B';
  port: number;
  /** Mean RSS over the window ending at 1/6 of the run. */
  atMarkMb: number;
  /** Mean RSS over the last window of the run. */
  atEndMb: number;
  firstMb: number;
  maxMb: number;
  growthPct: number;
  /** CPU time used over the run, % of one core. */
  cpuPct: number;
  /** Lines the instance logged at level error or fatal. */
  errorLogLines: number;
  exitedEarly: boolean;
}

export interface SoakResult {
  durationS: number;
  markS: number;
  windowS: number;
  /** Requests started per second over both instances (all scenarios). */
  offeredRate: number;
  data: { claims: number; bounties: number; voters: number; hunters: number; voteClaims: number };
  endpoints: EndpointFigures[];
  minutes: MinuteFigures[];
  /** `errors` are answers that are not 2xx/3xx; `warmupErrors` the same before the clock starts. */
  totals: { requests: number; errors: number; shed: number; warmupErrors: number };
  /** Every 10 s of the run: requests started, p99 per instance, the load client's own lag. */
  timeline: TimelineFigures[];
  /** How late the load client's 20 ms timer fired (its own CPU starvation), p99 and max. */
  clientLagMs: { p99: number; max: number };
  messages: {
    sent: number;
    delivered: number;
    lost: number;
    crossInstance: number;
    latencyMs: { p50: number; p99: number; max: number };
  };
  streams: { members: number; watchers: number; dropped: number; tallyEvents: number };
  memory: InstanceMemory[];
  /** Every 10 s: seconds since the start, RSS MB and CPU seconds used so far, per instance. */
  rssSamples: Sample[];
  /** The last lines each instance logged (LOG_LEVEL warn). */
  logTails: [string[], string[]];
  voteCheck: VoteCheck | null;
  errorSamples: string[];
  verdict: {
    errors: 'PASS' | 'FAIL';
    growth: 'PASS' | 'FAIL' | 'not judged';
    pass: boolean;
  };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

function figures(name: string, t: Tally): EndpointFigures {
  const sorted = Float64Array.from(t.latencies).sort();
  const arr = Array.from(sorted);
  return {
    endpoint: name,
    requests: t.requests,
    perInstance: [...t.perInstance],
    errors: t.errors,
    statuses: { ...t.statuses },
    p50: r1(percentile(arr, 50)),
    p99: r1(percentile(arr, 99)),
    max: r1(arr.at(-1) ?? NaN),
  };
}

// ---- processes ----------------------------------------------------------------------------

interface Proc {
  proc: ChildProcess;
  output: string[];
  errorLines: number;
  exited: Promise<void>;
  stop(): Promise<void>;
}

function spawnProc(
  cmd: string,
  argv: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv },
  onLine?: (line: string) => void,
): Proc {
  const proc = spawn(cmd, argv, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const self: Proc = {
    proc,
    output,
    errorLines: 0,
    exited: new Promise<void>((resolve) => proc.once('exit', () => resolve())),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await self.exited;
      clearTimeout(timer);
    },
  };
  let partial = '';
  const keep = (b: Buffer) => {
    const text = partial + b.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      output.push(line);
      if (output.length > 300) output.shift();
      onLine?.(line);
    }
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  return self;
}

async function waitFor(url: string, proc: Proc, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.proc.exitCode !== null) throw new Error(`${what} exited:\n${proc.output.join('\n')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      proc.proc.kill('SIGKILL');
      throw new Error(`${what} did not answer ${url}:\n${proc.output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** CPU seconds (user + system) the process has used so far (utime, stime of stat(5)). */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Rate limits far above what the load sends, so none fires; they are still counted in Redis. */
export const SOAK_RATE_LIMITS = {
  RL_LOGIN_EMAIL: '1000000/900',
  RL_LOGIN_IP: '1000000/300',
  RL_REGISTER_IP: '1000000/3600',
  RL_RESET_EMAIL: '1000000/3600',
  RL_RESET_IP: '1000000/3600',
  RL_UPLOAD_USER: '1000000/3600',
  RL_VOTE_USER: '1000000/60',
  RL_REPORT_USER: '1000000/3600',
  RL_MESSAGE_USER: '1000000/60',
};

// ---- the run ------------------------------------------------------------------------------

interface Seeded {
  claims: number;
  bounties: number;
  bountyIds: number[];
  claimIds: number[];
  voteClaims: number[];
  claimBounties: { bountyId: number; roundId: number }[];
  voters: Voter[];
  hunters: { token: string; hunterId: number; handle: string }[];
  receivers: { token: string; conversationId: number; sender: number }[];
  senderTokens: string[];
  watchBounties: number[];
  profiles: { handle: string; hunterId: number }[];
}

async function seed(url: string, o: SoakOptions): Promise<Seeded> {
  const handle = await createDatabase(url, { poolSize: 2 });
  const margin = `${Math.ceil(o.durationMs / 60_000) + 15} minutes`;
  try {
    await runMigrations(handle);
    await generateData(handle, {
      bounties: o.small ? 60 : 1000,
      claimsPerBounty: o.small ? 5 : 10,
      members: o.small ? 100 : 2000,
      // Short span: many rounds are still open, so there is plenty to vote on and claim.
      spanDays: o.small ? 3 : 10,
      imagePool: 4,
      seed: 7,
      log: (m) => o.log(`  ${m}`),
    });
    const q = await rawConnection(handle);
    let fromDb;
    try {
      const voters = await addVoters(q, o.small ? 60 : 300);
      const [counts] = await q.query<{ claims: number; bounties: number }>(
        'select (select count(*)::int from claims) as claims, (select count(*)::int from bounties) as bounties',
      );
      const ids = async (sql: string) => (await q.query<{ id: number }>(sql)).map((r) => r.id);
      const open = `r.end_date > now() + interval '${margin}' and r.closed_at is null`;
      const voteClaims = await ids(
        `select c.id from claims c
           join bounties b on b.id = c.bounty_id and b.round_count = c.round_number
           join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
          where ${open} order by c.id limit 5000`,
      );
      const claimBounties = await q.query<{ bountyId: number; roundId: number }>(
        `select b.id as "bountyId", b.round_count as "roundId" from bounties b
           join rounds r on r.bounty_id = b.id and r.number = b.round_count
          where ${open} order by b.id limit 200`,
      );
      const watchBounties = await ids(
        `select c.bounty_id as id from claims c
           join bounties b on b.id = c.bounty_id and b.round_count = c.round_number
           join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
          where ${open} group by c.bounty_id order by count(*) desc, c.bounty_id limit 20`,
      );
      // Hunters of the generated data sign in with sessions made here.
      const hunterRows = await q.query<{ userId: number; hunterId: number; handle: string }>(
        `select u.id as "userId", h.id as "hunterId", u.handle from hunters h
           join users u on u.id = h.user_id order by h.id limit ${o.small ? 6 : 30}`,
      );
      const hunters = [];
      for (const h of hunterRows) {
        const token = crypto.randomBytes(32).toString('base64url');
        await q.query(
          `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '2 days')`,
          [h.userId, hashToken(token)],
        );
        hunters.push({ token, hunterId: h.hunterId, handle: h.handle });
      }
      const profileHandles = await q.query<{ handle: string; hunterId: number }>(
        `select u.handle, h.id as "hunterId" from hunters h join users u on u.id = h.user_id
          where u.handle is not null order by h.id limit 500`,
      );
      fromDb = {
        ...counts!,
        voteClaims,
        claimBounties,
        voters,
        hunters,
        watchBounties,
        profiles: profileHandles,
      };
    } finally {
      await q.release();
    }
    const live = await seedLive(url, {
      streams: o.small ? 8 : 40,
      senders: o.small ? 4 : 10,
      messages: 0,
      rate: 0,
    });
    return {
      ...fromDb,
      bountyIds: await spreadIds(url, 'bounties'),
      claimIds: await spreadIds(url, 'claims'),
      receivers: live.receivers,
      senderTokens: live.senderTokens,
    };
  } finally {
    await handle.close();
  }
}

/** Up to 3,000 ids of the table, spread over it. */
async function spreadIds(url: string, table: 'bounties' | 'claims'): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ id: number }>(
      `select id from (select id, row_number() over (order by id) as n,
                              count(*) over () as total from ${table}) t
        where n % greatest(1, total / 3000) = 0 limit 3000`,
    );
    return r.rows.map((x) => x.id);
  } finally {
    await c.end();
  }
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  json?: unknown;
  body?: Buffer;
  contentType?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log;
  const ports = [o.basePort, o.basePort + 1] as const;
  const s3Port = o.basePort + 2;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-soak-'));
  const dbName = `bh_soak_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: o.pgAdminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const dbUrl = (() => {
    const u = new URL(o.pgAdminUrl);
    u.pathname = `/${dbName}`;
    return u.toString();
  })();
  const procs: Proc[] = [];
  const streams: { close(): void }[] = [];
  try {
    log(`soak: seeding database ${dbName}`);
    const data = await seed(dbUrl, o);
    log(
      `soak: ${data.claims} claims, ${data.voteClaims.length} open for votes, ${data.voters.length} voters, ` +
        `${data.hunters.length} hunters signed in, ${data.receivers.length} members with streams`,
    );

    // The S3-compatible server, in its own process so it does not share the load's event loop.
    const bucket = 'bh-soak';
    const s3 = spawnProc(
      process.execPath,
      [
        path.join(o.rootDir, 'node_modules/s3rver/bin/s3rver.js'),
        '--directory',
        path.join(tmp, 's3'),
        '--address',
        '127.0.0.1',
        '--port',
        String(s3Port),
        '--silent',
        '--configure-bucket',
        bucket,
      ],
      { cwd: o.rootDir, env: process.env },
    );
    procs.push(s3);
    fs.mkdirSync(path.join(tmp, 's3'), { recursive: true });
    await waitFor(`http://127.0.0.1:${s3Port}/`, s3, 's3rver');

    const instances: (Proc & { base: string; port: number })[] = [];
    // One key for both, as a deployment's instances share it (each would make its own otherwise).
    const encryptionKey = crypto.randomBytes(32).toString('base64');
    for (const [i, port] of ports.entries()) {
      const dataDir = path.join(tmp, `api-${i}`);
      fs.mkdirSync(dataDir, { recursive: true });
      const p = spawnProc(
        process.execPath,
        [...benchNodeFlags, '--import', 'tsx', path.join(o.rootDir, 'apps/api/src/server.ts')],
        {
          cwd: o.rootDir,
          env: {
            ...benchServerEnv({ port, databaseUrl: dbUrl, dataDir }),
            ENCRYPTION_KEY: encryptionKey,
            REDIS_URL: o.redisUrl,
            LIVE_BUS: 'auto',
            S3_BUCKET: bucket,
            S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
            AWS_ACCESS_KEY_ID: 'S3RVER',
            AWS_SECRET_ACCESS_KEY: 'S3RVER',
            MEDIA_URL: `http://127.0.0.1:${s3Port}/${bucket}/`,
            // No address is exempt: every limit is counted (in Redis), set far above the load.
            RATE_LIMIT_ALLOW: '',
            ...SOAK_RATE_LIMITS,
          },
        },
        (line) => {
          if (/"level":(50|60)/.test(line)) p.errorLines += 1;
        },
      );
      procs.push(p);
      instances.push(Object.assign(p, { base: `http://127.0.0.1:${port}`, port }));
    }
    // Both start at once, as replicas of a deployment do (one database, one pg-boss schema).
    await Promise.all(instances.map((p, i) => waitFor(`${p.base}/health`, p, `API ${'AB'[i]}`)));
    log(`soak: API A on ${ports[0]}, B on ${ports[1]}, S3 on ${s3Port}, Redis ${o.redisUrl}`);

    // ---- statistics -----------------------------------------------------------------------
    const total = new Map<string, Tally>();
    const minutes: Map<string, Tally>[] = [];
    const buckets: { lat: [number[], number[]]; lagMax: number }[] = [];
    const lags: number[] = [];
    const errorSamples: string[] = [];
    let shed = 0;
    /** Off during the warm-up. */
    let recording = false;
    const warmupProblems: string[] = [];
    let t0 = performance.now();
    // A request chained after the end (a claim after its upload) counts in the last minute.
    const lastMinute = Math.ceil(o.durationMs / 60_000) - 1;
    const lastBucket = Math.ceil(o.durationMs / 10_000) - 1;
    const minuteOf = (t: number) => Math.min(lastMinute, Math.floor((t - t0) / 60_000));
    const record = (
      endpoint: string,
      inst: number,
      startedAt: number,
      status: number | string,
      ms: number,
      detail?: string,
    ) => {
      const ok = typeof status === 'number' && status >= 200 && status < 400;
      if (!recording) {
        if (!ok) warmupProblems.push(`${endpoint} on ${'AB'[inst]}: ${status} ${detail ?? ''}`);
        return;
      }
      const m = minuteOf(startedAt);
      minutes[m] ??= new Map();
      const b = (buckets[Math.min(lastBucket, Math.floor((startedAt - t0) / 10_000))] ??= {
        lat: [[], []],
        lagMax: 0,
      });
      b.lat[inst === 0 ? 0 : 1].push(ms);
      for (const map of [total, minutes[m]!]) {
        let t = map.get(endpoint);
        if (!t) map.set(endpoint, (t = newTally()));
        t.requests += 1;
        t.perInstance[inst === 0 ? 0 : 1] += 1;
        t.statuses[String(status)] = (t.statuses[String(status)] ?? 0) + 1;
        if (!ok) t.errors += 1;
        t.latencies.push(ms);
      }
      if (!ok && errorSamples.length < 30)
        errorSamples.push(
          `${((startedAt - t0) / 1000).toFixed(1)} s ${endpoint} on ${'AB'[inst]}: ${status}${detail ? ` ${detail}` : ''}`,
        );
    };

    /** One request, timed to the end of its body; recorded unless `endpoint` is null. */
    const call = async (endpoint: string, inst: number, c: Call): Promise<Answer | null> => {
      const started = performance.now();
      const headers: Record<string, string> = {};
      if (c.token) headers.authorization = `Bearer ${c.token}`;
      let body: string | Uint8Array | undefined;
      if (c.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(c.json);
      } else if (c.body) {
        headers['content-type'] = c.contentType ?? 'application/octet-stream';
        body = new Uint8Array(c.body);
      }
      try {
        const res = await fetch(`${instances[inst]!.base}${c.path}`, {
          method: c.method,
          headers,
          body,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const ms = performance.now() - started;
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = text;
        }
        record(
          endpoint,
          inst,
          started,
          res.status,
          ms,
          res.status >= 400 ? text.slice(0, 200) : undefined,
        );
        return { status: res.status, headers: res.headers, body: parsed };
      } catch (err) {
        const e = err as Error;
        record(
          endpoint,
          inst,
          started,
          e.name === 'TimeoutError' ? 'timeout' : 'network',
          performance.now() - started,
          e.message,
        );
        return null;
      }
    };

    // ---- event streams --------------------------------------------------------------------
    const sentAt = new Map<string, number>();
    const deliveries: number[] = [];
    const deliveredPerMinute: number[] = [];
    let dropped = 0;
    let tallyEvents = 0;
    let stopping = false;
    const openLoop = (
      inst: number,
      query: string,
      token: string | undefined,
      on: (data: { type: string; message?: { text: string } }) => void,
    ) =>
      new Promise<void>((resolveOpen) => {
        let lastId: number | undefined;
        const controller = new AbortController();
        streams.push({ close: () => controller.abort() });
        let first = true;
        const loop = async () => {
          while (!stopping) {
            const headers: Record<string, string> = {};
            if (token) headers.authorization = `Bearer ${token}`;
            if (lastId !== undefined) headers['last-event-id'] = String(lastId);
            try {
              const res = await fetch(`${instances[inst]!.base}/events${query}`, {
                headers,
                signal: controller.signal,
              });
              if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
              await readEvents(res.body, {
                comment: (text) => {
                  if (text === 'open' && first) {
                    first = false;
                    resolveOpen();
                  }
                },
                event: (id, raw) => {
                  lastId = id;
                  on(JSON.parse(raw) as { type: string; message?: { text: string } });
                },
              });
            } catch (err) {
              if (stopping) break;
              if (errorSamples.length < 30)
                errorSamples.push(`stream on ${'AB'[inst]}: ${(err as Error).message}`);
            }
            if (stopping) break;
            dropped += 1;
            if (errorSamples.length < 30)
              errorSamples.push(
                `${((performance.now() - t0) / 1000).toFixed(1)} s: a stream on ${'AB'[inst]} ended; reconnecting`,
              );
            if (first) {
              first = false;
              resolveOpen();
            }
            await new Promise((r) => setTimeout(r, 1000));
          }
        };
        void loop();
      });

    const onMessage = (data: { type: string; message?: { text: string } }) => {
      if (data.type !== 'message' || !data.message || !recording) return;
      const at = sentAt.get(data.message.text);
      if (at === undefined) return;
      sentAt.delete(data.message.text);
      const now = performance.now();
      deliveries.push(now - at);
      const m = minuteOf(now);
      deliveredPerMinute[m] = (deliveredPerMinute[m] ?? 0) + 1;
    };
    // Receiver i holds its stream on instance i mod 2; its messages are sent through either.
    await Promise.all(data.receivers.map((r, i) => openLoop(i % 2, '', r.token, onMessage)));
    const watchers = o.small ? 2 : 10;
    await Promise.all(
      Array.from({ length: watchers }, (_, i) =>
        openLoop(i % 2, `?watch=${data.watchBounties.join(',')}`, undefined, (e) => {
          if (e.type === 'tally') tallyEvents += 1;
        }),
      ),
    );
    log(`soak: ${data.receivers.length} member streams and ${watchers} watcher streams open`);

    // ---- the scenarios ----------------------------------------------------------------------
    const jpeg = await photo(640, 480, 'jpeg');
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const memberToken = () => pick(data.voters).token;
    const maybeToken = (k: number) => (k % 2 === 0 ? memberToken() : undefined);
    const cursors: string[] = [];
    const voted = new Map<number, Set<number>>();
    let messageNo = 0;
    let crossInstance = 0;
    let voteRound = 0;

    interface Scenario {
      name: string;
      rate: number;
      run(inst: number, k: number): Promise<unknown>;
    }
    const scenarios: Scenario[] = [
      {
        name: 'POST /bounty/search (feed)',
        rate: 10,
        run: async (inst) => {
          const a = await call('POST /bounty/search (feed)', inst, {
            method: 'POST',
            path: '/bounty/search',
            json: { term: '' },
          });
          const next = a?.headers.get('x-next-cursor');
          if (next && cursors.length < 50) cursors.push(next);
        },
      },
      {
        name: 'POST /bounty/search (feed, next page)',
        rate: 3,
        run: (inst) =>
          call('POST /bounty/search (feed, next page)', inst, {
            method: 'POST',
            path: '/bounty/search',
            json: cursors.length ? { term: '', cursor: pick(cursors) } : { term: '' },
          }),
      },
      {
        name: 'POST /bounty/search (term)',
        rate: 4,
        run: (inst) =>
          call('POST /bounty/search (term)', inst, {
            method: 'POST',
            path: '/bounty/search',
            json: { term: SEARCH_TERM },
          }),
      },
      {
        name: 'GET /bounty/{id}',
        rate: 8,
        run: (inst, k) =>
          call('GET /bounty/{id}', inst, {
            method: 'GET',
            path: `/bounty/${pick(data.bountyIds)}`,
            token: maybeToken(k),
          }),
      },
      {
        name: 'GET /claim/{id}',
        rate: 8,
        run: (inst, k) =>
          call('GET /claim/{id}', inst, {
            method: 'GET',
            path: `/claim/${pick(data.claimIds)}`,
            token: maybeToken(k),
          }),
      },
      {
        name: 'GET /hunter/handle/{handle}',
        rate: 3,
        run: (inst, k) =>
          call('GET /hunter/handle/{handle}', inst, {
            method: 'GET',
            path: `/hunter/handle/${encodeURIComponent(pick(data.profiles).handle)}`,
            token: maybeToken(k),
          }),
      },
      {
        name: 'GET /hunter/{id}/feed',
        rate: 2,
        run: (inst) =>
          call('GET /hunter/{id}/feed', inst, {
            method: 'GET',
            path: `/hunter/${pick(data.profiles).hunterId}/feed`,
          }),
      },
      {
        name: 'GET /hunters',
        rate: 1,
        run: (inst) => call('GET /hunters', inst, { method: 'GET', path: '/hunters' }),
      },
      {
        name: 'GET /user',
        rate: 4,
        run: (inst) =>
          call('GET /user', inst, { method: 'GET', path: '/user', token: memberToken() }),
      },
      {
        name: 'POST /vote',
        rate: 6,
        run: async (inst) => {
          // Voters in turn, each on a claim of an open round it has not voted on yet.
          const voter = data.voters[voteRound++ % data.voters.length]!;
          let seen = voted.get(voter.userId);
          if (!seen) voted.set(voter.userId, (seen = new Set()));
          let claimId = pick(data.voteClaims);
          for (let tries = 0; seen.has(claimId) && tries < 50; tries++)
            claimId = pick(data.voteClaims);
          if (seen.has(claimId)) return;
          seen.add(claimId);
          await call('POST /vote', inst, {
            method: 'POST',
            path: '/vote',
            token: voter.token,
            json: { claimId, votes: 1 + (voteRound % 5) },
          });
        },
      },
      {
        name: 'POST /media/image',
        rate: 0.5,
        run: async (inst, k) => {
          const hunter = data.hunters[k % data.hunters.length]!;
          const up = await call('POST /media/image', inst, {
            method: 'POST',
            path: '/media/image',
            token: hunter.token,
            body: jpeg,
            contentType: 'image/jpeg',
          });
          const key = (up?.body as { key?: string } | null)?.key;
          if (!up || up.status !== 200 || !key) return;
          // The claim goes through the other instance: the upload's row and object are shared.
          const target = data.claimBounties[k % data.claimBounties.length]!;
          const claim = await call('POST /claim', 1 - inst, {
            method: 'POST',
            path: '/claim',
            token: hunter.token,
            json: { bountyId: target.bountyId, roundId: target.roundId, media: key },
          });
          const id = (claim?.body as { claimId?: number } | null)?.claimId;
          if (claim?.status === 200 && id) {
            data.voteClaims.push(id);
            data.claimIds.push(id);
          }
        },
      },
      {
        name: 'POST /conversations/{id}/messages',
        rate: 4,
        run: async (inst, k) => {
          // Half of them go through the instance that does not hold the recipient's stream.
          const i = (Math.floor(k / 2) * 7919) % data.receivers.length;
          const r = data.receivers[i]!;
          if (i % 2 !== inst) crossInstance += 1;
          const text = `${recording ? 'soak' : 'warm-up'} ${messageNo++}`;
          sentAt.set(text, performance.now());
          const a = await call('POST /conversations/{id}/messages', inst, {
            method: 'POST',
            path: `/conversations/${r.conversationId}/messages`,
            token: data.senderTokens[r.sender],
            json: { text },
          });
          if (!a || a.status !== 200) sentAt.delete(text);
        },
      },
      {
        name: 'GET /conversations/{id}/messages',
        rate: 2,
        run: async (inst, k) => {
          // A member opens a thread; every other time it is then marked read (as the app does).
          const r = pick(data.receivers);
          const page = await call('GET /conversations/{id}/messages', inst, {
            method: 'GET',
            path: `/conversations/${r.conversationId}/messages`,
            token: r.token,
          });
          const items = (page?.body as { items?: { messageId: number }[] } | null)?.items ?? [];
          if (Math.floor(k / 2) % 2 === 0 && items.length)
            await call('POST /conversations/{id}/read', inst, {
              method: 'POST',
              path: `/conversations/${r.conversationId}/read`,
              token: r.token,
              json: { upTo: Math.max(...items.map((m) => m.messageId)) },
            });
        },
      },
      {
        name: 'GET /conversations',
        rate: 1,
        run: (inst) =>
          call('GET /conversations', inst, {
            method: 'GET',
            path: '/conversations',
            token: pick(data.receivers).token,
          }),
      },
      {
        name: 'GET /conversations/unread',
        rate: 1,
        run: (inst) =>
          call('GET /conversations/unread', inst, {
            method: 'GET',
            path: '/conversations/unread',
            token: pick(data.receivers).token,
          }),
      },
      {
        name: 'GET /notifications',
        rate: 1,
        run: (inst) =>
          call('GET /notifications', inst, {
            method: 'GET',
            path: '/notifications',
            token: memberToken(),
          }),
      },
    ];
    const offeredRate = scenarios.reduce((s, x) => s + x.rate * o.scale, 0);

    // ---- RSS sampling -----------------------------------------------------------------------
    const rssSamples: Sample[] = [];
    const sample = () =>
      rssSamples.push({
        t: r1((performance.now() - t0) / 1000),
        a: r1(rssMb(instances[0]!.proc.pid!)),
        b: r1(rssMb(instances[1]!.proc.pid!)),
        cpuA: cpuSeconds(instances[0]!.proc.pid!),
        cpuB: cpuSeconds(instances[1]!.proc.pid!),
      });
    const cpuPct = (from: Sample, to: Sample, key: 'cpuA' | 'cpuB') =>
      to.t > from.t ? Math.round(((to[key] - from[key]) / (to.t - from.t)) * 100) : NaN;

    // ---- drive --------------------------------------------------------------------------------
    log(
      `soak: ${(o.durationMs / 1000).toFixed(0)} s of mixed load, about ${offeredRate.toFixed(1)} requests a second over both instances`,
    );
    // Warm-up, not counted: each scenario once on each instance, one after the other, so the
    // first minute measures the product rather than lazy imports and cold code.
    for (const sc of scenarios) for (const inst of [0, 1]) await sc.run(inst, inst);
    sentAt.clear();
    messageNo = 0;
    if (warmupProblems.length) log(`soak: warm-up answers: ${warmupProblems.join('; ')}`);
    recording = true;
    t0 = performance.now();
    sample();
    const inflight = new Set<Promise<unknown>>();
    const issued = scenarios.map(() => 0);
    let lastMinuteLogged = -1;
    const exitNoted = [false, false];
    const MAX_INFLIGHT = 500;
    await new Promise<void>((resolve) => {
      const sampler = setInterval(sample, 10_000);
      let lastTick = performance.now();
      const tick = setInterval(() => {
        const now = performance.now();
        const elapsed = now - t0;
        const lag = Math.max(0, now - lastTick - 20);
        lastTick = now;
        if (elapsed >= o.durationMs) {
          clearInterval(tick);
          clearInterval(sampler);
          sample();
          resolve();
          return;
        }
        lags.push(lag);
        const b = (buckets[Math.floor(elapsed / 10_000)] ??= { lat: [[], []], lagMax: 0 });
        b.lagMax = Math.max(b.lagMax, lag);
        for (const [s, sc] of scenarios.entries()) {
          const due = Math.floor((elapsed / 1000) * sc.rate * o.scale);
          while (issued[s]! < due) {
            const k = issued[s]!;
            issued[s] = k + 1;
            // An open loop: a stalled server builds a queue, but not without bound.
            if (inflight.size >= MAX_INFLIGHT) {
              shed += 1;
              continue;
            }
            const p = sc
              .run(k % 2, k)
              .catch((err: Error) => {
                if (errorSamples.length < 30) errorSamples.push(`${sc.name}: ${err.message}`);
              })
              .finally(() => inflight.delete(p));
            inflight.add(p);
          }
        }
        const m = minuteOf(performance.now()) - 1;
        if (m > lastMinuteLogged && minutes[m]) {
          lastMinuteLogged = m;
          const all = [...minutes[m]!.values()];
          const lat = all.flatMap((t) => t.latencies).sort((x, y) => x - y);
          const last = rssSamples.at(-1)!;
          log(
            `soak: minute ${m + 1}: ${all.reduce((s, t) => s + t.requests, 0)} requests, ` +
              `${all.reduce((s, t) => s + t.errors, 0)} errors, p50 ${r1(percentile(lat, 50))} ms, ` +
              `p99 ${r1(percentile(lat, 99))} ms, RSS A ${last.a} MB, B ${last.b} MB, in flight ${inflight.size}`,
          );
        }
        for (const [i, inst] of instances.entries())
          if (!exitNoted[i] && (inst.proc.exitCode !== null || inst.proc.signalCode !== null)) {
            exitNoted[i] = true;
            errorSamples.push(
              `${(elapsed / 1000).toFixed(1)} s: API ${'AB'[i]} exited: ${inst.output.slice(-5).join(' | ')}`,
            );
          }
      }, 20);
    });
    log(`soak: load stopped; waiting for ${inflight.size} requests in flight`);
    await Promise.race([Promise.all(inflight), new Promise((r) => setTimeout(r, 35_000))]);
    const waitUntil = Date.now() + 10_000;
    while (sentAt.size > 0 && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 50));
    stopping = true;
    for (const s of streams) s.close();

    // ---- the figures ----------------------------------------------------------------------
    const durationS = o.durationMs / 1000;
    const markS = durationS / 6;
    const windowS = Math.min(60, Math.max(10, durationS / 12));
    const meanIn = (key: 'a' | 'b', from: number, to: number) => {
      const xs = rssSamples.filter((s) => s.t > from && s.t <= to + 1).map((s) => s[key]);
      if (!xs.length) {
        // The nearest sample.
        const near = rssSamples.reduce((b, s) => (Math.abs(s.t - to) < Math.abs(b.t - to) ? s : b));
        return near[key];
      }
      return xs.reduce((s, x) => s + x, 0) / xs.length;
    };
    const memory: InstanceMemory[] = instances.map((inst, i) => {
      const key = i === 0 ? 'a' : 'b';
      const atMark = meanIn(key, markS - windowS, markS);
      const atEnd = meanIn(key, durationS - windowS, durationS);
      return {
        name: i === 0 ? 'A' : 'B',
        port: inst.port,
        atMarkMb: r1(atMark),
        atEndMb: r1(atEnd),
        firstMb: rssSamples[0]![key],
        maxMb: Math.max(...rssSamples.map((s) => s[key])),
        growthPct: r1(((atEnd - atMark) / atMark) * 100),
        cpuPct: cpuPct(rssSamples[0]!, rssSamples.at(-1)!, i === 0 ? 'cpuA' : 'cpuB'),
        errorLogLines: inst.errorLines,
        exitedEarly: inst.proc.exitCode !== null || inst.proc.signalCode !== null,
      };
    });
    const endpoints = scenarios
      .flatMap((s) =>
        s.name === 'POST /media/image'
          ? [s.name, 'POST /claim']
          : s.name === 'GET /conversations/{id}/messages'
            ? [s.name, 'POST /conversations/{id}/read']
            : [s.name],
      )
      .filter((name) => total.has(name))
      .map((name) => figures(name, total.get(name)!));
    const minuteFigures: MinuteFigures[] = minutes.map((map, m) => {
      const eps = [...(map ?? new Map<string, Tally>()).entries()].map(([n, t]) => figures(n, t));
      const lat = [...(map ?? new Map<string, Tally>()).values()]
        .flatMap((t) => t.latencies)
        .sort((x, y) => x - y);
      const inMinute = rssSamples.filter((s) => s.t > m * 60 && s.t <= (m + 1) * 60 + 1);
      const lastRss = inMinute.at(-1) ?? rssSamples.at(-1)!;
      const before = [...rssSamples].reverse().find((s) => s.t <= m * 60 + 1) ?? rssSamples[0]!;
      const worst = eps.reduce(
        (w, e) => (e.p99 > w.p99 ? e : w),
        eps[0] ?? figures('–', newTally()),
      );
      return {
        minute: m + 1,
        requests: eps.reduce((s, e) => s + e.requests, 0),
        errors: eps.reduce((s, e) => s + e.errors, 0),
        p50: r1(percentile(lat, 50)),
        p99: r1(percentile(lat, 99)),
        worstP99: { endpoint: worst.endpoint, p99: worst.p99 },
        rssMb: [lastRss.a, lastRss.b],
        cpuPct: [cpuPct(before, lastRss, 'cpuA'), cpuPct(before, lastRss, 'cpuB')],
        messagesDelivered: deliveredPerMinute[m] ?? 0,
        endpoints: eps,
      };
    });
    deliveries.sort((a, b) => a - b);
    const requests = endpoints.reduce((s, e) => s + e.requests, 0);
    const httpErrors = endpoints.reduce((s, e) => s + e.errors, 0);
    const lost = sentAt.size;
    const exitedEarly = memory.some((m) => m.exitedEarly);

    let voteCheck: VoteCheck | null = null;
    try {
      const handle = await createDatabase(dbUrl, { poolSize: 1 });
      const q = await rawConnection(handle);
      try {
        voteCheck = await checkVotes(q);
      } finally {
        await q.release();
        await handle.close();
      }
    } catch (err) {
      errorSamples.push(`vote recount failed: ${(err as Error).message}`);
    }

    errorSamples.unshift(...warmupProblems.map((w) => `warm-up: ${w}`));
    const errors =
      httpErrors + lost + dropped + shed + warmupProblems.length + (exitedEarly ? 1 : 0);
    const judged = durationS >= 300;
    const growthOk = memory.every((m) => m.growthPct < 10);
    const verdict = {
      errors: errors === 0 && (voteCheck?.exact ?? false) ? ('PASS' as const) : ('FAIL' as const),
      growth: !judged ? ('not judged' as const) : growthOk ? ('PASS' as const) : ('FAIL' as const),
      pass: false,
    };
    verdict.pass = verdict.errors === 'PASS' && verdict.growth !== 'FAIL';
    return {
      durationS,
      markS: r1(markS),
      windowS: r1(windowS),
      offeredRate: r1(offeredRate),
      data: {
        claims: data.claims,
        bounties: data.bounties,
        voters: data.voters.length,
        hunters: data.hunters.length,
        voteClaims: data.voteClaims.length,
      },
      endpoints,
      minutes: minuteFigures,
      totals: { requests, errors: httpErrors, shed, warmupErrors: warmupProblems.length },
      timeline: Array.from(buckets, (b, i) => {
        const [a, bb] = (b?.lat ?? [[], []]).map((l) => l.sort((x, y) => x - y));
        return {
          t: i * 10,
          requests: [a!.length, bb!.length],
          p99: [r1(percentile(a!, 99)), r1(percentile(bb!, 99))],
          clientLagMaxMs: r1(b?.lagMax ?? 0),
        };
      }),
      clientLagMs: (() => {
        const sorted = lags.sort((x, y) => x - y);
        return { p99: r1(percentile(sorted, 99)), max: r1(sorted.at(-1) ?? 0) };
      })(),
      messages: {
        sent: messageNo,
        delivered: deliveries.length,
        lost,
        crossInstance,
        latencyMs: {
          p50: r1(percentile(deliveries, 50)),
          p99: r1(percentile(deliveries, 99)),
          max: r1(deliveries.at(-1) ?? NaN),
        },
      },
      streams: { members: data.receivers.length, watchers, dropped, tallyEvents },
      memory,
      rssSamples,
      logTails: [0, 1].map((i) =>
        instances[i]!.output.slice(-50).map((l) => l.replaceAll(tmp, '<run dir>')),
      ) as [string[], string[]],
      voteCheck,
      errorSamples,
      verdict,
    };
  } finally {
    for (const s of streams) s.close();
    for (const p of procs.reverse()) await p.stop().catch(() => undefined);
    if (o.keep) log(`soak: kept database ${dbName} and ${tmp}`);
    else {
      const c = new pg.Client({ connectionString: o.pgAdminUrl });
      await c.connect();
      await c.query(`drop database if exists ${dbName} with (force)`);
      await c.end();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

// ---- the report ---------------------------------------------------------------------------

const fmtDuration = (s: number) =>
  s >= 60 && s % 60 === 0
    ? `${s / 60} min`
    : s >= 60
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${s} s`;

export function soakMarkdown(
  r: SoakResult,
  meta: { startedAt: string; machine: Record<string, unknown> },
): string {
  const m = meta.machine;
  const lines: string[] = [];
  const statuses = (s: Record<string, number>) =>
    Object.entries(s)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
  lines.push(`# Soak ${meta.startedAt}`, '');
  lines.push(
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memGb} GB, Node ${m.node}, load average ${String(m.loadAvgAtStart)} at the start and ${String(m.loadAvgAtEnd)} at the end. ` +
      `Two API processes (API only, as \`npm start\` runs them) on one fresh PostgreSQL database, Redis (rate limits and the live bus), media in an s3rver bucket; ` +
      `after a warm-up (each scenario once on each instance, not timed), ${fmtDuration(r.durationS)} of open-loop mixed load at about ${r.offeredRate} requests a second spread over both, ` +
      `${r.streams.members} members' event streams and ${r.streams.watchers} anonymous watchers open throughout. ` +
      `Data: ${r.data.claims.toLocaleString('en')} claims in ${r.data.bounties.toLocaleString('en')} bounties, ` +
      `${r.data.voters} voters, ${r.data.hunters} hunters signed in. Rate limits are counted but set far above the load (RL_* = 1,000,000 per window).`,
    '',
  );
  lines.push('## Verdict', '');
  lines.push('| target | figure | met |', '|---|---|---|');
  const errs =
    r.totals.errors + r.totals.warmupErrors + r.messages.lost + r.streams.dropped + r.totals.shed;
  lines.push(
    `| errors: 0 | ${errs} (${r.totals.errors} HTTP answers not 2xx/3xx, ${r.messages.lost} messages lost, ${r.streams.dropped} streams dropped, ${r.totals.shed} requests shed, ${r.totals.warmupErrors} in the warm-up) of ${r.totals.requests.toLocaleString('en')} requests; vote totals ${r.voteCheck ? (r.voteCheck.exact ? 'equal a recount' : '**differ from a recount**') : 'not checked'} | ${r.verdict.errors} |`,
  );
  for (const mem of r.memory)
    lines.push(
      `| RSS growth of API ${mem.name} < 10 % (${fmtDuration(Math.round(r.markS))} → end) | ${mem.atMarkMb} → ${mem.atEndMb} MB: ${mem.growthPct > 0 ? '+' : ''}${mem.growthPct} % | ${r.verdict.growth === 'not judged' ? 'not judged (runs under 5 min)' : mem.growthPct < 10 ? 'PASS' : 'FAIL'} |`,
    );
  lines.push('');
  lines.push('## Endpoints (whole run)', '');
  lines.push(
    '| endpoint | requests | A / B | errors | statuses | p50 ms | p99 ms | max ms |',
    '|---|---:|---|---:|---|---:|---:|---:|',
  );
  for (const e of r.endpoints)
    lines.push(
      `| ${e.endpoint} | ${e.requests} | ${e.perInstance[0]} / ${e.perInstance[1]} | ${e.errors} | ${statuses(e.statuses)} | ${e.p50} | ${e.p99} | ${e.max} |`,
    );
  lines.push('');
  lines.push(
    `Messages: ${r.messages.sent} sent, ${r.messages.delivered} delivered on the recipient's open stream (${r.messages.crossInstance} sent through the other instance than the stream's), ${r.messages.lost} lost; ` +
      `delivery p50 ${r.messages.latencyMs.p50} ms, p99 ${r.messages.latencyMs.p99} ms, max ${r.messages.latencyMs.max} ms. ` +
      `Streams dropped: ${r.streams.dropped}. Tally events received by the watchers: ${r.streams.tallyEvents}.`,
  );
  if (r.voteCheck)
    lines.push(
      '',
      `Votes afterwards: ${r.voteCheck.votes} rows; totals ${r.voteCheck.exact ? 'equal a fresh recount' : '**do not** equal a recount'} ` +
        `(claim ${r.voteCheck.claimMismatches}, member ${r.voteCheck.memberMismatches}, ledger ${r.voteCheck.ledgerMismatches}, ` +
        `earnings ${r.voteCheck.earningsMismatches} mismatches; ${r.voteCheck.ledgerUnbalancedTransactions} unbalanced money transactions).`,
    );
  const slow = [...r.timeline]
    .sort((x, y) => Math.max(...y.p99) - Math.max(...x.p99))
    .slice(0, 3)
    .filter((x) => Math.max(...x.p99) > 0);
  lines.push(
    '',
    `The load client (one Node process) fired its 20 ms timer late by p99 ${r.clientLagMs.p99} ms, at most ${r.clientLagMs.max} ms. ` +
      `Slowest 10 s windows (p99 A / B, client lag): ${slow
        .map((x) => `${x.t}–${x.t + 10} s: ${x.p99[0]} / ${x.p99[1]} ms, ${x.clientLagMaxMs} ms`)
        .join('; ')}.`,
  );
  lines.push('');
  lines.push('## Memory (VmRSS every 10 s)', '');
  lines.push(
    `| instance | first sample | at ${fmtDuration(Math.round(r.markS))} (mean of ${r.windowS} s) | at the end (mean of ${r.windowS} s) | max | growth | CPU (% of a core) | error log lines |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const mem of r.memory)
    lines.push(
      `| API ${mem.name} (port ${mem.port}) | ${mem.firstMb} MB | ${mem.atMarkMb} MB | ${mem.atEndMb} MB | ${mem.maxMb} MB | ${mem.growthPct} % | ${mem.cpuPct} % | ${mem.errorLogLines} |`,
    );
  lines.push('');
  lines.push('## Per minute', '');
  lines.push(
    '| minute | requests | errors | p50 ms | p99 ms | slowest p99 | messages delivered | RSS A MB | RSS B MB | CPU A % | CPU B % |',
    '|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
  );
  for (const x of r.minutes)
    lines.push(
      `| ${x.minute} | ${x.requests} | ${x.errors} | ${x.p50} | ${x.p99} | ${x.worstP99.endpoint} ${x.worstP99.p99} ms | ${x.messagesDelivered} | ${x.rssMb[0]} | ${x.rssMb[1]} | ${x.cpuPct[0]} | ${x.cpuPct[1]} |`,
    );
  if (r.errorSamples.length) {
    lines.push('', '## First errors', '');
    for (const e of r.errorSamples) lines.push(`- ${e.replace(/\n/g, ' ')}`);
  }
  return lines.join('\n');
}
