/**
 * `npm run seed`: the demo data of CONTRACT.md (SEED_DEMO) into the configured database
 * (DATABASE_URL, else the embedded PGlite in DATA_DIR/db), migrating it first. Idempotent.
 */
import fs from 'node:fs';
import { createLogger } from '../app';
import { createDatabase, runMigrations } from '../db/client';
import { loadConfigOrExit } from '../env';
import { PgBossJobQueue } from '../jobs/pg-boss-queue';
import { seedDemo } from './seed';
import { useOperatorCwd } from '../lib/operator-cwd';

useOperatorCwd();
const config = loadConfigOrExit();
const log = createLogger(config);
fs.mkdirSync(config.dataDir, { recursive: true });
const database = await createDatabase(config.databaseUrl);
// Jobs the seed leaves for later (renewals, say) go to the durable queue the server will run.
const jobs = new PgBossJobQueue(database, log, { schedule: false, statsIntervalSeconds: 0 });
try {
  await runMigrations(database);
  await jobs.start();
  const result = await seedDemo({ config, database, log, jobs });
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
  await jobs.stop(5000);
  await database.close();
}
