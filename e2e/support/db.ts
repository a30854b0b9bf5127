/**
 * Direct SQL on the run's PostgreSQL database, for states no API sets yet (an expired
 * membership, a handle before the accounts feature lands). Prefer the API when one exists.
 */
import pg from 'pg';
import { afterAll } from 'vitest';

const url = process.env.E2E_DATABASE_URL;
let pool: pg.Pool | null = null;

export function hasDatabase(): boolean {
  return !!url;
}

export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (!url) throw new Error('E2E_DATABASE_URL is not set (run the specs with npm run e2e)');
  pool ??= new pg.Pool({ connectionString: url, max: 2 });
  return (await pool.query<T>(text, params)).rows;
}

afterAll(async () => {
  await pool?.end();
  pool = null;
});

/** Membership valid until `days` from now (negative: expired that long ago). */
export async function setActive(userId: number, days: number | null): Promise<void> {
  await sql(
    `UPDATE users SET active = ${days === null ? 'NULL' : `now() + ($2::int * interval '1 day')`}, membership = 2 WHERE id = $1`,
    days === null ? [userId] : [userId, days],
  );
}

/** Sets a user's handle (the hunter's public handle lives on the user row). */
export async function setHandleDb(userId: number, handle: string | null): Promise<void> {
  await sql('UPDATE users SET handle = $2 WHERE id = $1', [userId, handle]);
}

export async function setSilver(userId: number, silver: number, votes = 0): Promise<void> {
  await sql('UPDATE users SET silver = $2, votes = $3 WHERE id = $1', [userId, silver, votes]);
}
