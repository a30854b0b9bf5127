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
import { createRunDatabase, productEnv, startProduct } from './support/product.mjs';

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
const { apiUrl, webUrl, env } = productEnv({
  dataDir,
  databaseUrl: db.url,
  apiPort: Number(process.env.API_PORT ?? 5152),
  webPort: Number(process.env.WEB_PORT ?? 3100),
});
const product = startProduct({ env, dataDir });

let code = 1;
try {
  if (!(await product.waitUntilUp())) {
    console.error(product.log());
    throw new Error('e2e: the product did not start');
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
  await product.stop();
  await db.drop();
  if (code === 0) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`e2e: server log and data kept in ${dataDir}`);
}
process.exit(code);
