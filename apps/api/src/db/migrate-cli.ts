/** `npm run db:migrate`: applies pending migrations to the configured database. */
import { loadConfig } from '../env';
import { createDatabase, runMigrations } from './client';
import { useOperatorCwd } from '../lib/operator-cwd';

useOperatorCwd();
const config = loadConfig();
const handle = await createDatabase(config.databaseUrl);
await runMigrations(handle);
await handle.close();
console.log('Migrations applied.');
