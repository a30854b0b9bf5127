/**
 * `npm run backup -- [--out FILE]`: a consistent backup of the configured deployment (database
 * and media) into one tar file.
 * `npm run restore -- FILE`: brings a backup back into an empty deployment (same variables:
 * DATA_DIR, DATABASE_URL, S3_*). Refuses a damaged archive or a database that has data.
 * Relative paths (FILE, DATA_DIR) are taken from the folder the command was started in.
 */
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createDatabase } from '../db/client';
import { loadConfigOrExit } from '../env';
import { PgBossJobQueue } from '../jobs/pg-boss-queue';
import { backup, BackupError, restore } from './backup';
import { useOperatorCwd } from '../lib/operator-cwd';

useOperatorCwd();

const command = process.argv[2];
const usage = ['Usage: npm run backup -- [--out FILE]', '       npm run restore -- FILE'].join(
  '\n',
);

function stamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

let args;
try {
  args = parseArgs({
    args: process.argv.slice(3),
    options: { out: { type: 'string' }, help: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(1);
}
if (args.values.help || (command !== 'backup' && command !== 'restore')) {
  console.log(usage);
  process.exit(command === 'backup' || command === 'restore' ? 0 : 1);
}

const config = loadConfigOrExit();
const say = (line: string) => console.log(line);
try {
  if (command === 'backup') {
    const out = args.values.out ?? args.positionals[0] ?? `bountyhunt-backup-${stamp()}.tar`;
    const res = await backup({ config, out, log: say });
    const rows = res.manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `Backup written to ${res.file}: ${mib(res.bytes)}, ${rows} rows in ${res.manifest.tables.length} tables, ` +
        `${res.manifest.media.length} media objects, ${res.manifest.jobs.count} queued jobs, in ${res.seconds.toFixed(1)} s.`,
    );
  } else {
    const file = args.positionals[0] ?? args.values.out;
    if (!file) {
      console.error(usage);
      process.exit(1);
    }
    const database = await createDatabase(config.databaseUrl, { poolSize: 2 });
    const jobs = new PgBossJobQueue(database, pino({ level: 'warn' }), {
      schedule: false,
      statsIntervalSeconds: 0,
    });
    try {
      const res = await restore({ config, file, database, jobs, log: say });
      console.log(
        `Restored ${res.rows} rows, ${res.objects} media objects and ${res.jobs} queued jobs in ${res.seconds.toFixed(1)} s.`,
      );
    } finally {
      await jobs.stop(5000);
      await database.close();
    }
  }
} catch (err) {
  if (err instanceof BackupError) {
    console.error(`${command} failed: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
