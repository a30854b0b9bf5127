// `npm run e2e`: starts the product (`node scripts/start.mjs`) on a fresh DATA_DIR and a
// fresh PostgreSQL database made for this run (PGlite when no server answers on
// E2E_PG_URL), waits for it, runs the browser specs with Vitest, then stops the product
// and drops the database. Ports: API_PORT (5152) and WEB_PORT (3100).
// Extra arguments go to Vitest, e.g. `npm run e2e -- specs/auth.spec.ts`.
// E2E_APIS=2 (PostgreSQL only): a second API instance on API_PORT+1 and a round-robin balancer
// on API_PORT+2 that the browser and the specs call, so calls alternate between instances.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunDatabase, productEnv, startProduct } from './support/product.mjs';
import { startRoundRobin } from './support/round-robin.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-e2e-'));
const db = await createRunDatabase({
  adminUrl: process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  prefix: 'bh_e2e',
  dataDir,
  warn: (m) => console.warn(`e2e: ${m}`),
});
if (!db.postgres) console.warn('e2e: specs that need SQL are skipped');
const apiPort = Number(process.env.API_PORT ?? 5152);
const twoApis = process.env.E2E_APIS === '2';
if (twoApis && !db.postgres) throw new Error('e2e: E2E_APIS=2 needs PostgreSQL');
const { apiUrl, webUrl, env } = productEnv({
  dataDir,
  databaseUrl: db.url,
  apiPort,
  webPort: Number(process.env.WEB_PORT ?? 3100),
  // With two instances, the browser and the specs call the balancer.
  ...(twoApis ? { publicApiPort: apiPort + 2 } : {}),
});
const balancer = twoApis
  ? await startRoundRobin({
      port: apiPort + 2,
      targets: [`http://127.0.0.1:${apiPort}`, `http://127.0.0.1:${apiPort + 1}`],
    })
  : null;
const product = startProduct({ env, dataDir });
let second = null;

let code = 1;
try {
  if (!(await product.waitUntilUp())) {
    console.error(product.log());
    throw new Error('e2e: the product did not start');
  }
  if (twoApis) {
    second = startProduct({
      env: { ...env, API_PORT: String(apiPort + 1), API_ONLY: '1' },
      dataDir,
      healthUrl: `http://127.0.0.1:${apiPort + 1}/health`,
    });
    if (!(await second.waitUntilUp())) {
      console.error(second.log());
      throw new Error('e2e: the second API instance did not start');
    }
    console.log(`e2e: two API instances (${apiPort}, ${apiPort + 1}) behind ${apiUrl}`);
  }
  console.log(
    `e2e: product up (api ${apiUrl}, web ${webUrl}, ${db.postgres ? 'PostgreSQL' : 'PGlite'})`,
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
        ...(db.postgres ? { E2E_DATABASE_URL: db.url } : {}),
      },
    },
  );
  code = await new Promise((r) => vitest.on('exit', (c) => r(c ?? 1)));
} catch (err) {
  console.error(err.message);
} finally {
  await second?.stop();
  await product.stop();
  if (balancer) console.log(`e2e: requests per API instance: ${balancer.counts.join(', ')}`);
  await balancer?.close();
  await db.drop();
  if (code === 0) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`e2e: server log and data kept in ${dataDir}`);
}
process.exit(code);
