/**
 * `npm run admin -- --email x@y [--create]`: grants the admin role (bit 4), which the public
 * API never does. With --create an unknown e-mail becomes a new admin with a random password
 * nobody knows, and a one-time password-set link is printed.
 * `npm run admin -- --email x@y --reset-factor`: an admin who lost the authenticator and the
 * recovery codes sets up a new one at the next sign-in (their sessions end now).
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createRoot } from './composition';
import { createDatabase, runMigrations } from './db/client';
import { loadConfigOrExit } from './env';
import { MemoryJobQueue } from './jobs/memory-queue';
import { UnknownUserError } from './modules/admin/admin.service';
import { useOperatorCwd } from './lib/operator-cwd';

const usage = 'Usage: npm run admin -- --email <address> [--create | --reset-factor]';
let args;
try {
  args = parseArgs({
    options: {
      email: { type: 'string' },
      create: { type: 'boolean', default: false },
      'reset-factor': { type: 'boolean', default: false },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(1);
}
if (!args.email?.includes('@') || (args.create && args['reset-factor'])) {
  console.error(usage);
  process.exit(1);
}

useOperatorCwd();
const config = loadConfigOrExit();
const database = await createDatabase(config.databaseUrl);
let exitCode = 0;
try {
  await runMigrations(database);
  const log = pino({ level: 'warn' });
  const root = createRoot({ config, database, log, jobs: new MemoryJobQueue() });
  if (args['reset-factor']) {
    const reset = await root.services.admin.resetFactor(args.email);
    console.log(
      reset.hadFactor
        ? `${reset.email}: authenticator and recovery codes removed, sessions ended; the next sign-in sets up a new one.`
        : `${reset.email} had no authenticator set up; sessions ended.`,
    );
  } else {
    const result = await root.services.admin.grantAdmin(args.email, { create: args.create });
    if (result.created) {
      console.log(`Created admin ${result.email} (user ${result.userId}).`);
      console.log(`Set the password once, within the hour: ${result.setPasswordLink}`);
    } else {
      console.log(`${result.email} (user ${result.userId}) is now an admin.`);
    }
  }
  await root.storage.close();
} catch (err) {
  if (!(err instanceof UnknownUserError)) throw err;
  console.error(args['reset-factor'] ? err.message : `${err.message} Pass --create to create it.`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
