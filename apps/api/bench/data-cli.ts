/**
 * `npm run bench:data -- --bounties N --claims-per-bounty K --members M [--hunters H]
 *   [--images P] [--seed S]`
 * Appends generated rows to the configured database (DATABASE_URL, else the embedded
 * PGlite in DATA_DIR/db), migrating it first; image derivatives go to DATA_DIR/media.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, runMigrations } from '../src/db/client';
import { loadConfig } from '../src/env';
import { generateData } from './generate';

const { values } = parseArgs({
  options: {
    bounties: { type: 'string', default: '1000' },
    'claims-per-bounty': { type: 'string', default: '10' },
    members: { type: 'string', default: '1000' },
    hunters: { type: 'string' },
    images: { type: 'string', default: '24' },
    seed: { type: 'string', default: '42' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'npm run bench:data -- --bounties N --claims-per-bounty K --members M [--hunters H] [--images P] [--seed S]\n' +
      'Writes into DATABASE_URL (or the embedded PGlite in DATA_DIR/db); images into DATA_DIR/media.',
  );
  process.exit(0);
}

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a whole number, got "${v}"`);
    process.exit(2);
  }
  return n;
}

const config = loadConfig();
const handle = await createDatabase(config.databaseUrl, { poolSize: 2 });
try {
  await runMigrations(handle);
  const where =
    handle.kind === 'postgres' ? new URL(config.databaseUrl).pathname : config.databaseUrl;
  console.log(`bench:data into ${handle.kind} ${where}`);
  const result = await generateData(handle, {
    bounties: int('bounties', values.bounties)!,
    claimsPerBounty: int('claims-per-bounty', values['claims-per-bounty'])!,
    members: int('members', values.members)!,
    hunters: int('hunters', values.hunters),
    imagePool: int('images', values.images),
    seed: int('seed', values.seed),
    mediaDir: path.join(config.dataDir, 'media'),
    log: (m) => console.log(`  ${m}`),
  });
  console.log(
    `done in ${result.seconds.toFixed(1)} s: ` +
      Object.entries(result.rows)
        .map(([t, n]) => `${t} ${n}`)
        .join(', '),
  );
} finally {
  await handle.close();
}
