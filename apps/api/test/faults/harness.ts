/**
 * The fault tests' harness (issue 20): real processes only. A private PostgreSQL cluster
 * (initdb + pg_ctl, as the postgres user when run as root), a private redis-server, an
 * S3-compatible server (s3rver, in this process so a test can hook its requests and stop it),
 * real API server processes (apps/api/src/server.ts through tsx, API_ONLY=1) and nginx.
 *
 * Every process and temp dir made here is registered and removed by `cleanup()` (call it in
 * afterAll), and killed on exit of the test process as a last resort. Ports come from
 * FAULTS_PORT_BASE (default 6400): each test file passes its own offset.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const SERVER_TS = path.join(REPO_ROOT, 'apps/api/src/server.ts');

export function port(offset: number): number {
  return Number(process.env.FAULTS_PORT_BASE ?? 6400) + offset;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`,
      );
    }
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// Cleanup registry

const children = new Set<ChildProcess>();
const groups = new Set<number>();
const dirs = new Set<string>();
const closers: (() => Promise<void>)[] = [];

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bh-fault-${prefix}-`));
  dirs.add(dir);
  return dir;
}

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Synchronous last-resort stops (PostgreSQL clusters), run on exit. */
const syncStops = new Set<() => void>();

function killAllNow() {
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const stop of syncStops) {
    try {
      stop();
    } catch {
      // already stopped
    }
  }
}
process.on('exit', killAllNow);
for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  process.once(sig, () => {
    killAllNow();
    process.exit(1);
  });
}

/** Stops everything this harness started (reverse order) and removes its temp dirs. */
export async function cleanup(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  groups.clear();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs.clear();
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

function tcpOpen(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port: p, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a private cluster

function findPgBin(): string | null {
  if (process.env.PG_BIN)
    return fs.existsSync(path.join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : null;
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : null;
}

const isRoot = process.getuid?.() === 0;

/** Why PostgreSQL faults cannot run here, or null when they can. */
export function postgresSkipReason(): string | null {
  const bin = findPgBin();
  if (!bin)
    return 'PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql (set PG_BIN)';
  if (isRoot && spawnSync('id', ['-u', 'postgres']).status !== 0) {
    return 'running as root and there is no postgres user to run initdb as';
  }
  return null;
}

export interface PgCluster {
  url: string;
  port: number;
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    params?: unknown[],
  ): Promise<T[]>;
  /** pg_ctl stop -m immediate (like a crash: no checkpoint, connections cut). */
  stop(): void;
  start(): void;
  restart(): void;
}

export async function startPostgres(p: number): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error(postgresSkipReason()!);
  const dir = tempDir('pg');
  const data = path.join(dir, 'data');
  const asPg = (cmd: string, args: string[]) => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    fs.chownSync(dir, uid, gid);
  }
  asPg(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const opts = [
    `-p ${p}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');
  const pgCtl = (args: string[]) => asPg(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  // -l always: without it the server would hold this process's pipes open.
  const logged = ['-l', path.join(dir, 'server.log'), '-o', opts, '-w', '-t', '60'];
  const start = () => pgCtl([...logged, 'start']);
  const stop = () => pgCtl(['-m', 'immediate', '-w', 'stop']);
  const stopIfRunning = () => {
    if (fs.existsSync(path.join(data, 'postmaster.pid'))) stop();
  };
  start();
  syncStops.add(stopIfRunning);
  closers.push(async () => {
    syncStops.delete(stopIfRunning);
    try {
      stopIfRunning();
    } catch {
      // not running
    }
  });
  const url = `postgres://postgres@127.0.0.1:${p}/postgres`;
  return {
    url,
    port: p,
    async query(text, params) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end();
      }
    },
    stop,
    start,
    restart: () => pgCtl(['-m', 'immediate', ...logged, 'restart']),
  };
}

// ---------------------------------------------------------------------------------------------
// Redis: a private redis-server

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startRedis(p: number): Promise<RedisServer> {
  const dir = tempDir('redis');
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(p),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    children.add(child);
    await waitFor(`redis on ${p}`, () => tcpOpen(p), 10_000, 50);
  };
  const stop = async () => {
    if (!child) return;
    const c = child;
    child = undefined;
    c.kill('SIGKILL');
    await exited(c);
    children.delete(c);
  };
  await start();
  closers.push(stop);
  return { url: `redis://127.0.0.1:${p}`, start, stop };
}

// ---------------------------------------------------------------------------------------------
// S3: s3rver in this process

export const BUCKET = 'bh-media';

export interface S3Server {
  endpoint: string;
  client: S3Client;
  /** Called for every request s3rver receives (before it handles it). */
  onRequest: ((req: { method?: string; url?: string }, res: NodeJS.EventEmitter) => void) | null;
  /** Every object in the bucket (keys as stored: `private/…` for private objects). */
  list(): Promise<_Object[]>;
  /** Unreachable at once: the listener closed and every open connection cut. */
  stop(): Promise<void>;
  start(): Promise<void>;
  empty(): Promise<void>;
}

export async function startS3(p: number): Promise<S3Server> {
  const dir = tempDir('s3');
  let server: S3rver | undefined;
  const sockets = new Set<Socket>();
  const s3: S3Server = {
    endpoint: `http://127.0.0.1:${p}`,
    client: new S3Client({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${p}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
    onRequest: null,
    async list() {
      const out: _Object[] = [];
      let token: string | undefined;
      do {
        const res = await s3.client.send(
          new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }),
        );
        out.push(...(res.Contents ?? []));
        token = res.NextContinuationToken;
      } while (token);
      return out;
    },
    async empty() {
      const objs = await s3.list();
      if (objs.length === 0) return;
      await s3.client.send(
        new DeleteObjectsCommand({
          Bucket: BUCKET,
          Delete: { Objects: objs.map((o) => ({ Key: o.Key! })) },
        }),
      );
    },
    async start() {
      server = new S3rver({
        address: '127.0.0.1',
        port: p,
        silent: true,
        directory: dir,
        configureBuckets: [{ name: BUCKET }],
      });
      await server.run();
      server.httpServer.on('connection', (sock: Socket) => {
        sockets.add(sock);
        sock.once('close', () => sockets.delete(sock));
      });
      server.httpServer.prependListener('request', (req, res) => s3.onRequest?.(req, res));
    },
    async stop() {
      if (!server) return;
      const s = server;
      server = undefined;
      const closed = s.close();
      for (const sock of sockets) sock.destroy();
      await closed;
    },
  };
  await s3.start();
  closers.push(async () => {
    await s3.stop();
    s3.client.destroy();
  });
  return s3;
}

// ---------------------------------------------------------------------------------------------
// API server processes

export interface ApiOptions {
  name: string;
  port: number;
  env: Record<string, string>;
  /** Shared between instances of one deployment unless given. */
  dataDir?: string;
}

export interface ApiProcess {
  name: string;
  base: string;
  port: number;
  pid: number;
  /** The process's log lines so far (pino JSON). */
  log(): string;
  /** kill -9 of the whole process group (ffmpeg children die with it, as on a lost machine). */
  kill9(): Promise<void>;
  /** SIGTERM; resolves with the exit code once the process ended. */
  term(): Promise<number | null>;
  exited(): Promise<{ code: number | null; signal: string | null }>;
  /** Started again on the same port, data dir and settings; resolves once healthy. */
  restart(): Promise<void>;
  running(): boolean;
}

/** Settings every test instance gets unless the test says otherwise. */
const BASE_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  API_ONLY: '1',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  SEED_DEMO: '0',
  FEED_CACHE_MS: '0',
  PAGE_CACHE_MS: '0',
  RL_REGISTER_IP: '10000/3600',
  RL_LOGIN_IP: '10000/300',
  RL_UPLOAD_USER: '10000/3600',
  RL_MESSAGE_USER: '10000/60',
  RL_VOTE_USER: '10000/60',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

export async function startApi(opts: ApiOptions): Promise<ApiProcess> {
  const dataDir = opts.dataDir ?? tempDir(`data-${opts.name}`);
  const logFile = path.join(tempDir(`log-${opts.name}`), 'api.log');
  let child!: ChildProcess;
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The test runner's own settings must not leak into the servers.
  for (const k of [
    'DATABASE_URL',
    'REDIS_URL',
    'S3_BUCKET',
    'S3_ENDPOINT',
    'MEDIA_URL',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'TEST_DATABASE_URL',
    'TEST_REDIS_URL',
  ]) {
    delete env[k];
  }
  Object.assign(env, BASE_ENV, { API_PORT: String(opts.port), DATA_DIR: dataDir }, opts.env);
  const api: ApiProcess = {
    name: opts.name,
    base: `http://127.0.0.1:${opts.port}`,
    port: opts.port,
    pid: 0,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    async kill9() {
      killGroup(child.pid!, 'SIGKILL');
      await exited(child);
    },
    async term() {
      child.kill('SIGTERM');
      const { code } = await exited(child);
      return code;
    },
    exited: () => exited(child),
    running: () => child.exitCode === null && child.signalCode === null,
    async restart() {
      if (api.running()) await api.kill9();
      await launch();
    },
  };
  const launch = async () => {
    const logStart = api.log().length;
    const out = fs.openSync(logFile, 'a');
    child = spawn(process.execPath, ['--import', 'tsx', SERVER_TS], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', out, out],
      // Its own process group: kill9() takes its ffmpeg children too.
      detached: true,
    });
    fs.closeSync(out);
    children.add(child);
    groups.add(child.pid!);
    child.once('exit', () => groups.delete(child.pid!));
    api.pid = child.pid!;
    await waitFor(
      `${opts.name} healthy`,
      async () => {
        if (!api.running()) {
          throw new Error(`${opts.name} exited during start-up:\n${api.log().slice(-3000)}`);
        }
        // Listening and its workers started (server.ts logs this last).
        if (!api.log().slice(logStart).includes('BountyHunt is running')) return false;
        const res = await fetch(`${api.base}/health`, { signal: AbortSignal.timeout(2000) });
        return res.status === 200;
      },
      90_000,
      200,
    ).catch((err: Error) => {
      // A start-up crash is the interesting part: say it, not the timeout.
      throw new Error(`${err.message}\n--- ${opts.name} log ---\n${api.log().slice(-3000)}`);
    });
  };
  await launch();
  return api;
}

/** The pids of the processes whose parent is `pid` and whose command is `comm` (Linux /proc). */
export function childrenNamed(pid: number, comm: string): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …
      const m = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
      if (m && m[1] === comm && Number(m[2]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// nginx in front of instances

export interface Balancer {
  base: string;
  /** Access log lines: `status|upstream_addr|uri` (upstream_addr lists each upstream tried). */
  accessLog(): string[];
}

export function nginxSkipReason(): string | null {
  return fs.existsSync('/usr/sbin/nginx') ? null : 'nginx not installed (/usr/sbin/nginx)';
}

export async function startNginx(p: number, upstreams: number[]): Promise<Balancer> {
  const dir = tempDir('nginx');
  for (const d of ['logs', 'tmp']) fs.mkdirSync(path.join(dir, d));
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1;
error_log ${dir}/logs/error.log warn;
events { worker_connections 256; }
http {
  log_format faults '$status|$upstream_addr|$request_uri';
  access_log ${dir}/logs/access.log faults;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream api {
${upstreams.map((u) => `    server 127.0.0.1:${u} max_fails=1 fail_timeout=5s;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${p};
    client_max_body_size 30m;
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
    }
  }
}
`,
  );
  const child = spawn(
    '/usr/sbin/nginx',
    ['-p', dir, '-c', conf, '-g', `daemon off; pid ${dir}/nginx.pid;`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  children.add(child);
  closers.push(async () => {
    child.kill('SIGQUIT');
    await Promise.race([exited(child), sleep(3000)]);
  });
  await waitFor(
    `nginx on ${p}`,
    () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
      return tcpOpen(p);
    },
    10_000,
    50,
  );
  return {
    base: `http://127.0.0.1:${p}`,
    accessLog: () => {
      const f = path.join(dir, 'logs/access.log');
      return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').filter(Boolean) : [];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

/** One request with a hard client-side timeout (a hang is a failure, not a wait). */
export async function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; json?: unknown; body?: Buffer; type?: string; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.body) {
    headers['content-type'] = opts.type ?? 'application/octet-stream';
    body = new Uint8Array(opts.body);
  }
  const started = Date.now();
  const res = await fetch(base + url, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, ms: Date.now() - started };
}

let userSeq = 0;

export interface User {
  token: string;
  userId: number;
  email: string;
}

export async function signUp(base: string, opts: { hunter?: boolean } = {}): Promise<User> {
  const email = `fault${process.pid}-${Date.now()}-${++userSeq}@example.com`;
  const password = 'Secret-pass1!';
  const reg = await call(base, 'POST', '/user', {
    json: { email, password, hunter: !!opts.hunter },
  });
  if (reg.status !== 200) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  const login = await call(base, 'POST', '/auth', { json: { email, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.token, userId: reg.body.userId, email };
}
