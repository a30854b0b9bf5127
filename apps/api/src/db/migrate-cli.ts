/** `npm run db:migrate`: applies pending migrations to the configured database. */
import { loadConfig } from '../env';
import { createDatabase, runMigrations } from './client';

const config = loadConfig();
const handle = await createDatabase(config.databaseUrl);
await runMigrations(handle);
await handle.close();
console.log('Migrations applied.');
