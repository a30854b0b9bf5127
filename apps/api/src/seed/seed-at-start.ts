/**
 * The start-up rule of the demo seed, apart from the seed itself: server.ts checks it on every
 * start and loads seed.ts (and its image rendering) only when it says yes.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseHandle } from '../db/client';
import type { Config } from '../env';

/** True when the database holds no migration yet (checked before migrating). */
export async function isBrandNew(database: DatabaseHandle): Promise<boolean> {
  const rows = await queryRows<{ t: string | null }>(
    database.db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`,
  );
  return !rows[0]?.t;
}

/** Start-up rule: a brand-new embedded database (PGlite or the embedded PostgreSQL) unless SEED_DEMO=0; any brand-new one with SEED_DEMO=1. */
export function shouldSeedAtStart(
  config: Config,
  kind: DatabaseHandle['kind'],
  brandNew: boolean,
): boolean {
  if (config.SEED_DEMO === '0' || !brandNew) return false;
  if (config.SEED_DEMO === '1') return true;
  if (config.databaseUrl.startsWith('embedded-postgres://')) return true;
  return kind === 'pglite' && !config.databaseUrl.startsWith('memory://');
}
