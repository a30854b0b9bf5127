// `npm run e2e`: starts the product (`node scripts/start.mjs`) on a fresh DATA_DIR and a
// fresh PostgreSQL database made for this run (PGlite when no server answers on
// E2E_PG_URL), waits for it, runs the browser specs with Vitest, then stops the product
// and drops the database. Ports: API_PORT (5152) and WEB_PORT (3100).
// Extra arguments go to Vitest, e.g. `npm run e2e -- specs/auth.spec.ts`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const apiPort = Number(process.env.API_PORT ?? 5152);
const webPort = Number(process.env.WEB_PORT ?? 3100);
const adminUrl = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-e2e-'));
const dbName = `bh_e2e_${Date.now().toString(36)}_${process.pid}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let databaseUrl;
let pgReady = false;
try {
  await admin(`CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
  pgReady = true;
} catch (err) {
  databaseUrl = `pglite://${path.join(dataDir, 'db')}`;
  console.warn(
    `e2e: PostgreSQL not reachable (${err.message}); using PGlite, specs that need SQL are skipped`,
  );
}

const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://127.0.0.1:${webPort}`;
const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: ['ignore', log, log],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    API_PORT: String(apiPort),
    WEB_PORT: String(webPort),
    HOST: '127.0.0.1',
    API_URL: apiUrl,
    PUBLIC_WEB_URL: webUrl,
    SEED_DEMO: '0',
    RATE_LIMIT_ALLOW: '127.0.0.1,::1,::ffff:127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
let serverExited = false;
server.on('exit', () => (serverExited = true));

async function stop() {
  if (!serverExited) {
    server.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => {
        server.kill('SIGKILL');
        r();
      }, 10_000);
      server.on('exit', () => {
        clearTimeout(t);
        r();
      });
    });
  }
  if (pgReady) {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err) =>
      console.warn(`e2e: could not drop ${dbName}: ${err.message}`),
    );
  }
}

async function waitUntilUp() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (serverExited) break;
    try {
      const [health, web] = await Promise.all([fetch(`${apiUrl}/health`), fetch(`${webUrl}/`)]);
      if (health.ok && web.ok) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

let code = 1;
try {
  if (!(await waitUntilUp())) {
    console.error(fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8'));
    throw new Error('e2e: the product did not start');
  }
  console.log(
    `e2e: product up (api ${apiUrl}, web ${webUrl}, ${pgReady ? 'PostgreSQL' : 'PGlite'})`,
  );
  const vitest = spawn(
    path.join(root, 'node_modules/.bin/vitest'),
    ['run', '--config', path.join(here, 'vitest.config.ts'), ...process.argv.slice(2)],
    {
      cwd: here,
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_API_URL: apiUrl,
        E2E_WEB_URL: webUrl,
        E2E_DATA_DIR: dataDir,
        ...(pgReady ? { E2E_DATABASE_URL: databaseUrl } : {}),
      },
    },
  );
  code = await new Promise((r) => vitest.on('exit', (c) => r(c ?? 1)));
} catch (err) {
  console.error(err.message);
} finally {
  await stop();
  if (code === 0) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`e2e: server log and data kept in ${dataDir}`);
}
process.exit(code);
