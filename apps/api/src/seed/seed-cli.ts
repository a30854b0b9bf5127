/**
 * `npm run seed`: the demo data of CONTRACT.md (SEED_DEMO) into the configured database
 * (DATABASE_URL, else the embedded PGlite in DATA_DIR/db), migrating it first. Idempotent.
 */
import fs from 'node:fs';
import { createLogger } from '../app';
import { createDatabase, runMigrations } from '../db/client';
import { ConfigError, loadConfig } from '../env';
import { seedDemo } from './seed';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const log = createLogger(config);
fs.mkdirSync(config.dataDir, { recursive: true });
const database = await createDatabase(config.databaseUrl);
try {
  await runMigrations(database);
  const result = await seedDemo({ config, database, log });
  if (result.skipped) console.log('Demo data is already there; nothing to do.');
  else
    console.log(
      `Demo data seeded in ${result.seconds.toFixed(1)} s: ` +
        Object.entries(result.counts)
          .map(([k, n]) => `${n} ${k}`)
          .join(', '),
    );
  for (const n of result.notes) console.log(`note: ${n}`);
} finally {
  await database.close();
}
