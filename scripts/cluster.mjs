// `npm run cluster`: the product as deployed, on loopback. nginx (deploy/nginx/bountyhunt.conf,
// rendered for this run) is the one public origin: it serves the built web app, proxies /api/
// to two API instances (`API_ONLY=1 node scripts/start.mjs`) and /media/ to an S3-compatible
// server (s3rver, in this process). The instances share PostgreSQL (DATABASE_URL; its
// database is created when missing), Redis (REDIS_URL) and the bucket.
//
// Ports: CLUSTER_PORT (8080) is nginx; the API instances listen on CLUSTER_PORT+1 and +2, s3rver
// on +3. Everything the run writes (nginx's config and logs, the instances' logs and DATA_DIR,
// the bucket) is under CLUSTER_DIR (./data/cluster). Ctrl-C stops it all.
// startCluster() is also what `npm run e2e:cluster` (e2e/cluster/run.mjs) runs the suite on.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import S3rver from 's3rver';
import { API_NODE_FLAGS } from './api-node-flags.mjs';
import { GLIBC_ENV } from './glibc-env.mjs';
import { defaults as siteDefaults, prepareDir, renderMain, renderSite } from './nginx-conf.mjs';
import { ensureWebBuilt, WEB_DIST } from './web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const BUCKET = 'bh-media';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/bountyhunt_cluster';

/** Creates the database of `url` on its server when it does not exist yet. */
export async function ensureDatabase(url) {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    throw new Error(`cluster: database name "${name}" must be letters, digits and _`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: admin.toString(),
    connectionTimeoutMillis: 5000,
  });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name}`);
    return !rowCount;
  } finally {
    await client.end();
  }
}

async function waitFor(check, { timeoutMs, isDead = () => false }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !isDead()) {
    try {
      if (await check()) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

/** A child whose output goes to `logFile`; stop() sends `signal`, then SIGKILL after 12 s. */
function startChild(name, command, args, { env, logFile }) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  let exited = false;
  const exit = new Promise((r) =>
    child.on('exit', (code, signal) => {
      exited = true;
      r({ code, signal });
    }),
  );
  return {
    name,
    pid: child.pid,
    logFile,
    exit,
    get exited() {
      return exited;
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    async stop(signal = 'SIGTERM') {
      if (exited) return;
      child.kill(signal);
      const t = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exit;
      clearTimeout(t);
    },
    /**
     * Last resort (this process is exiting): SIGTERM without waiting. Not SIGKILL: nginx's
     * master and start.mjs pass SIGTERM on to their own children, SIGKILL would orphan them.
     */
    kill() {
      if (!exited) child.kill('SIGTERM');
    },
  };
}

/**
 * Starts s3rver, the two API instances (one after the other: the first migrates) and nginx,
 * and waits until all answer. `stop()` stops everything, nginx first.
 */
export async function startCluster(opts = {}) {
  const env = { ...process.env, ...opts.env };
  const base = Number(opts.port ?? env.CLUSTER_PORT ?? 8080);
  const ports = { front: base, api: [base + 1, base + 2], s3: base + 3 };
  const dir = path.resolve(opts.dir ?? env.CLUSTER_DIR ?? path.join(root, 'data/cluster'));
  const databaseUrl = opts.databaseUrl ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const log = opts.log ?? ((m) => console.log(`cluster: ${m}`));
  const front = `http://127.0.0.1:${ports.front}`;
  const dataDir = path.join(dir, 'data');
  const nginxDir = path.join(dir, 'nginx');
  for (const d of [dir, dataDir, path.join(dir, 's3'), path.join(dir, 'logs')])
    fs.mkdirSync(d, { recursive: true });

  const children = [];
  let s3 = null;
  const killAll = () => children.forEach((c) => c.kill());
  process.on('exit', killAll);
  async function stop() {
    // nginx first (no new requests), then the instances drain theirs, then the bucket.
    // (SIGTERM is nginx's fast shutdown: a graceful one would wait for open event streams.)
    const nginx = children.filter((c) => c.name === 'nginx');
    await Promise.all(nginx.map((c) => c.stop()));
    await Promise.all(children.filter((c) => !nginx.includes(c)).map((c) => c.stop()));
    await s3?.close();
    s3 = null;
    process.off('exit', killAll);
  }

  try {
    if (ensureWebBuilt() !== 0) throw new Error('the web app did not build');
    if (await ensureDatabase(databaseUrl))
      log(`created database ${new URL(databaseUrl).pathname.slice(1)}`);

    s3 = new S3rver({
      address: '127.0.0.1',
      port: ports.s3,
      silent: true,
      directory: path.join(dir, 's3'),
      configureBuckets: [{ name: BUCKET }],
    });
    await s3.run();

    const apiEnv = {
      // glibc's settings as `npm start` gives them (decision 0008); the caller's own win.
      ...GLIBC_ENV,
      ...env,
      NODE_ENV: env.NODE_ENV ?? 'production',
      API_ONLY: '1',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      API_URL: `${front}/api`,
      MEDIA_URL: `${front}/media/`,
      PUBLIC_WEB_URL: front,
      // nginx on loopback is the only proxy whose X-Forwarded-For is believed.
      TRUST_PROXY: env.TRUST_PROXY ?? '127.0.0.1',
    };
    for (const [i, port] of ports.api.entries()) {
      const name = `api-${i + 1}`;
      const api = startChild(
        name,
        process.execPath,
        [...API_NODE_FLAGS, path.join(root, 'scripts/start.mjs')],
        {
          env: { ...apiEnv, API_PORT: String(port) },
          logFile: path.join(dir, 'logs', `${name}.log`),
        },
      );
      children.push(api);
      const up = await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, {
        // The first start of a brand-new database migrates (and may seed the demo).
        timeoutMs: 600_000,
        isDead: () => api.exited,
      });
      if (!up) throw new Error(`${name} did not start; its log:\n${api.log().slice(-4000)}`);
      log(`${name} up on 127.0.0.1:${port}`);
    }

    prepareDir(nginxDir);
    const siteFile = path.join(nginxDir, 'bountyhunt.conf');
    fs.writeFileSync(
      siteFile,
      renderSite({
        ...siteDefaults(env),
        BH_LISTEN: `127.0.0.1:${ports.front}`,
        BH_SERVER_NAME: 'localhost',
        BH_API_SERVERS: ports.api.map((p) => `127.0.0.1:${p}`).join(','),
        BH_WEB_ROOT: WEB_DIST,
        BH_MEDIA_ORIGIN: `http://127.0.0.1:${ports.s3}/${BUCKET}`,
        BH_LOG_DIR: path.join(nginxDir, 'logs'),
      }),
    );
    const mainFile = path.join(nginxDir, 'nginx.conf');
    fs.writeFileSync(mainFile, renderMain({ dir: nginxDir, siteFile }));
    const nginxArgs = [
      '-p',
      nginxDir,
      '-e',
      path.join(nginxDir, 'logs', 'error.log'),
      '-c',
      mainFile,
      '-g',
      `daemon off; pid ${path.join(nginxDir, 'nginx.pid')};`,
    ];
    const test = spawnSync(NGINX, [...nginxArgs, '-t', '-q'], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}${test.stdout}`);
    const nginx = startChild('nginx', NGINX, nginxArgs, {
      env,
      logFile: path.join(dir, 'logs', 'nginx.log'),
    });
    children.push(nginx);
    const up = await waitFor(
      async () => (await fetch(`${front}/api/health`)).ok && (await fetch(`${front}/`)).ok,
      { timeoutMs: 15_000, isDead: () => nginx.exited },
    );
    if (!up) throw new Error(`nginx did not answer; its log:\n${nginx.log()}`);
    log(`nginx up on ${front} (web, /api/ on ${ports.api.join(' and ')}, /media/ from s3rver)`);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    front,
    apiUrl: `${front}/api`,
    instances: ports.api.map((p) => `http://127.0.0.1:${p}`),
    s3Url: `http://127.0.0.1:${ports.s3}`,
    bucket: BUCKET,
    dir,
    dataDir,
    databaseUrl,
    redisUrl,
    children,
    stop,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // A brand-new cluster database gets the demo data unless SEED_DEMO=0.
  const cluster = await startCluster({
    env: { SEED_DEMO: process.env.SEED_DEMO ?? '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  }).catch((err) => {
    console.error(`cluster: ${err.message}`);
    process.exit(1);
  });
  console.log(
    `cluster: open ${cluster.front} (logs in ${cluster.dir}/logs and nginx/logs); Ctrl-C stops it`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('cluster: stopping');
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // One part dying ends the run: a cluster with a hole in it is not what was asked for.
  for (const c of cluster.children)
    void c.exit.then(({ code, signal }) => {
      if (stopping) return;
      console.error(`cluster: ${c.name} exited (${signal ?? code}); see ${c.logFile}`);
      void cluster.stop().then(() => process.exit(1));
    });
}
