// `npm run e2e:cluster`: starts the cluster of `npm run cluster` (scripts/cluster.mjs: nginx in
// front of two API instances, PostgreSQL, Redis, s3rver) on a fresh database and a temporary
// directory, runs the cluster specs (e2e/cluster/*.spec.ts: API calls through nginx and to
// each instance, and a browser through nginx), then stops everything and drops the database.
// Exits non-zero when a spec fails or the cluster does not start. Ports: CLUSTER_PORT (5260)
// and the three after it. Extra arguments go to Vitest, e.g. `npm run e2e:cluster -- jobs`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startCluster } from '../../scripts/cluster.mjs';
import { createRunDatabase } from '../support/product.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const started = Date.now();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-cluster-e2e-'));
const db = await createRunDatabase({
  adminUrl: process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  prefix: 'bh_cluster_e2e',
  dataDir: dir,
  warn: (m) => console.warn(`e2e:cluster: ${m}`),
});

// Rate-limit counters live an hour in Redis: this suite keeps its own logical database and
// starts it without counters, so a run within the hour of the last one starts afresh.
const redisUrl = process.env.E2E_CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
async function clearRateCounters() {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'bh:rl:*', 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

let cluster = null;
let vitest = null;
let code = 1;
let stopping = null;
async function cleanUp() {
  stopping ??= (async () => {
    if (vitest && vitest.exitCode === null) vitest.kill('SIGTERM');
    await cluster?.stop();
    await db.drop();
  })();
  return stopping;
}
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    console.error(`e2e:cluster: ${sig}; stopping`);
    void cleanUp().then(() => {
      console.log(`e2e:cluster: logs kept in ${dir}`);
      process.exit(1);
    });
  });

try {
  if (!db.postgres) throw new Error('the cluster needs PostgreSQL (E2E_PG_URL)');
  await clearRateCounters();
  cluster = await startCluster({
    port: Number(process.env.CLUSTER_PORT ?? 5260),
    dir,
    databaseUrl: db.url,
    log: (m) => console.log(`e2e:cluster: ${m}`),
    env: {
      SEED_DEMO: '0',
      REDIS_URL: redisUrl,
      // Job runs are read back from the instances' logs ("job done").
      LOG_LEVEL: 'info',
      // Every spec signs up and in from 127.0.0.1 through nginx; the per-IP limits of those
      // two would stop the run. The other limits keep their defaults (rate-limits.spec.ts).
      RL_REGISTER_IP: '100000/3600',
      RL_LOGIN_IP: '100000/300',
    },
  });
  console.log(`e2e:cluster: up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  vitest = spawn(
    path.join(root, 'node_modules/.bin/vitest'),
    ['run', '--config', path.join(here, 'vitest.config.ts'), ...process.argv.slice(2)],
    {
      cwd: here,
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_API_URL: cluster.apiUrl,
        E2E_WEB_URL: cluster.front,
        E2E_DATA_DIR: cluster.dataDir,
        E2E_DATABASE_URL: db.url,
        E2E_CLUSTER_INSTANCES: cluster.instances.join(','),
        E2E_CLUSTER_DIR: cluster.dir,
        E2E_CLUSTER_S3: `${cluster.s3Url}/${cluster.bucket}`,
      },
    },
  );
  code = await new Promise((r) => vitest.on('exit', (c) => r(c ?? 1)));
} catch (err) {
  console.error(`e2e:cluster: ${err.message}`);
} finally {
  await cleanUp();
  if (code === 0) fs.rmSync(dir, { recursive: true, force: true });
  else console.log(`e2e:cluster: logs kept in ${dir} (logs/, nginx/logs/)`);
  console.log(
    `e2e:cluster: ${code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
process.exit(code);
