// Runs the whole product for a browser run (`npm run e2e`, run-e2e.mjs) or a Lighthouse run
// (`npm run bench:web`, bench/web-bench.ts): a PostgreSQL database made for the run (PGlite
// in DATA_DIR when no server answers), the product's environment, `node scripts/start.mjs`
// with its log in DATA_DIR/server.log, waiting until both servers answer, and stopping.
// Plain JavaScript (types in product.d.mts) so the .mjs runner and the .ts bench share it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { API_NODE_FLAGS } from '../../scripts/api-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function admin(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database `<prefix>_<time>_<pid>` on `adminUrl`'s server, or PGlite in `dataDir`. */
export async function createRunDatabase({ adminUrl, prefix, dataDir, warn = console.warn }) {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  try {
    await admin(adminUrl, `CREATE DATABASE ${name}`);
  } catch (err) {
    warn(`PostgreSQL not reachable (${err.message}); using PGlite`);
    return { url: `pglite://${path.join(dataDir, 'db')}`, postgres: false, drop: async () => {} };
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    postgres: true,
    drop: () =>
      admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((err) =>
        warn(`could not drop ${name}: ${err.message}`),
      ),
  };
}

/** The product's environment for a run on 127.0.0.1 (no demo data, no rate limits locally). */
export function productEnv({ dataDir, databaseUrl, apiPort, webPort, publicApiPort = apiPort }) {
  const apiUrl = `http://127.0.0.1:${publicApiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  return {
    apiUrl,
    webUrl,
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
      // The specs set memberships, silver and handles in SQL (support/db.ts), behind the API's
      // back: the signed-in user is read anew on every request (decision 0022).
      USER_CACHE_MS: '0',
    },
  };
}

/** Starts `node scripts/start.mjs` (it builds the web app when stale) with `env`. */
export function startProduct({ env, dataDir, healthUrl }) {
  const logFile = path.join(dataDir, 'server.log');
  const fd = fs.openSync(logFile, 'a');
  const server = spawn(
    process.execPath,
    [...API_NODE_FLAGS, path.join(root, 'scripts/start.mjs')],
    {
      cwd: root,
      env,
      stdio: ['ignore', fd, fd],
    },
  );
  let exited = false;
  server.on('exit', () => (exited = true));
  const apiUrl = env.API_URL;
  const webUrl = env.PUBLIC_WEB_URL;
  return {
    logFile,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    /** True once GET /health and the web page answer (within 3 minutes: a first build). */
    async waitUntilUp() {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline && !exited) {
        try {
          const [health, web] = await Promise.all([
            fetch(healthUrl ?? `${apiUrl}/health`),
            healthUrl ? Promise.resolve({ ok: true }) : fetch(`${webUrl}/`),
          ]);
          if (health.ok && web.ok) return true;
        } catch {
          // not up yet
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      return false;
    },
    /** SIGTERM, then SIGKILL after 10 s. */
    async stop() {
      if (exited) return;
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
    },
  };
}
