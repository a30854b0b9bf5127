/**
 * EXPLAIN ANALYZE of the bounties feature's reads on a large generated data set: shows that
 * feed, bounty, claim, rank and vote queries walk indexes and do not scan whole tables.
 *
 *   npx tsx apps/api/bench/explain-bounties.ts                 # in-memory PGlite
 *   DATABASE_URL=postgres://…/scratch npx tsx apps/api/bench/explain-bounties.ts
 *   SCALE=4 …                                                  # 4× the rows
 *
 * The SQL explained is exactly what the repository sends: a Drizzle logger captures each
 * query and its parameters while the repository function runs.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR, type Db } from '../src/db/client';
import * as schema from '../src/db/schema';
import * as bountiesRepo from '../src/modules/bounties/bounties.repository';
import * as claimsRepo from '../src/modules/bounties/claims.repository';
import * as searchRepo from '../src/modules/bounties/search.repository';
import * as votesRepo from '../src/modules/bounties/votes.repository';

const SCALE = Number(process.env.SCALE ?? 1);
const N = {
  users: 20_000 * SCALE,
  bounties: 100_000 * SCALE,
  claims: 500_000 * SCALE,
  votes: 1_000_000 * SCALE,
};

const captured: { query: string; params: unknown[] }[] = [];
const logger = { logQuery: (query: string, params: unknown[]) => captured.push({ query, params }) };

const url = process.env.DATABASE_URL;
let db: Db;
let raw: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
let close: () => Promise<void>;
if (url?.startsWith('postgres')) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  db = drizzlePg({ client: pool, schema, logger }) as unknown as Db;
  await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
  raw = (text, params) => pool.query(text, params as unknown[]);
  close = () => pool.end();
} else {
  const lite = await PGlite.create();
  db = drizzlePglite({ client: lite, schema, logger }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
  raw = (text, params) =>
    lite.query(text, params as unknown[]) as Promise<{ rows: Record<string, unknown>[] }>;
  close = () => lite.close();
}

async function timed(label: string, text: string) {
  const t0 = performance.now();
  await raw(text);
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const existing = await raw('select count(*)::int as n from bounties');
if (Number(existing.rows[0]!.n) === 0) {
  console.log(`Generating ${JSON.stringify(N)} …`);
  const words = [
    'zebra',
    'sunset',
    'mountain',
    'river',
    'city',
    'night',
    'cat',
    'dog',
    'portrait',
    'street',
    'ocean',
    'forest',
    'dance',
    'skate',
    'trick',
    'recipe',
    'cake',
    'bridge',
    'rain',
    'snow',
    'festival',
    'garden',
    'sky',
    'bird',
    'train',
    'neon',
    'desert',
    'lake',
    'storm',
    'market',
  ];
  const arr = `array[${words.map((w) => `'${w}'`).join(',')}]`;
  await timed(
    'users',
    `insert into users (email, password_hash, role, active, silver, handle)
     select 'u' || g || '@bench.test', 'x', case when g % 10 = 0 then 2 else 1 end,
            now() + interval '30 days', 1000, 'h' || g
     from generate_series(1, ${N.users}) g`,
  );
  await timed(
    'hunters',
    `insert into hunters (user_id) select id from users where role = 2 order by id`,
  );
  await timed(
    'bounties',
    `insert into bounties (user_id, title, created_at)
     select 1 + (g * 7) % ${N.users},
            (${arr})[1 + g % 30] || ' ' || (${arr})[1 + (g / 30) % 30] || ' ' || (${arr})[1 + (g / 900) % 30] || ' ' || g,
            now() - make_interval(secs => ${N.bounties} - g)
     from generate_series(1, ${N.bounties}) g`,
  );
  await timed(
    'rounds',
    `insert into rounds (bounty_id, number, end_date)
     select id, 1, created_at + interval '1 day' from bounties`,
  );
  // Claims cluster on recent bounties; bounty 1 is a hot one with 20 000 claims.
  await timed(
    'claims',
    `insert into claims (bounty_id, round_number, hunter_id, media, votes, created_at)
     select case when g % 25 = 0 then 1 else 1 + (g * 13) % ${N.bounties} end, 1,
            1 + g % ${N.users / 10}, case when g % 3 = 0 then 'v-' else 'i-' end || g,
            (g * 31) % 97, now() - make_interval(secs => ${N.claims} - g)
     from generate_series(1, ${N.claims}) g`,
  );
  await timed(
    'votes',
    `insert into votes (claim_id, user_id, value)
     select 1 + g % ${N.claims}, 1 + (g / ${N.claims}) % ${N.users}, 1 + g % 5
     from generate_series(1, ${N.votes}) g`,
  );
  await timed('analyze', 'analyze');
}

async function explain(label: string, run: () => Promise<unknown>) {
  captured.length = 0;
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  console.log(`\n=== ${label} (${ms.toFixed(1)} ms through the repository)`);
  for (const q of captured) {
    const plan = await raw(
      `explain (analyze, costs off, timing off, summary on) ${q.query}`,
      q.params,
    );
    for (const row of plan.rows) console.log('  ' + String(Object.values(row)[0]));
  }
}

const { rows: hot } = await raw(
  `select id from claims where bounty_id = 1 order by votes asc, created_at desc limit 1`,
);
const lastClaim = Number(hot[0]!.id);
const page1 = await searchRepo.searchBounties(db, { tsquery: null, limit: 11 });
const last = page1[page1.length - 1]!;

await explain('feed, first page (empty term)', () =>
  searchRepo.searchBounties(db, { tsquery: null, limit: 11 }),
);
await explain('feed, next page by cursor', () =>
  searchRepo.searchBounties(db, {
    tsquery: null,
    limit: 11,
    after: { c: last.created_key, i: last.id },
  }),
);
await explain('search, rare prefix ("festiv & stor & 4242")', () =>
  searchRepo.searchBounties(db, { tsquery: 'festiv:* & stor:* & 4242:*', limit: 11 }),
);
await explain('search, common prefix ("zeb", ~10% of bounties)', () =>
  searchRepo.searchBounties(db, { tsquery: 'zeb:*', limit: 11 }),
);
await explain('feed claims for a page of 10 bounties (12 per round)', () =>
  claimsRepo.roundsWithClaims(
    db,
    page1.slice(0, 10).map((b) => b.id),
    12,
  ),
);
await explain('bounty page of the hot bounty (500 claims of 20 000)', () =>
  claimsRepo.roundsWithClaims(db, [1], 500),
);
await explain('claim page', () => claimsRepo.findClaimView(db, lastClaim));
await explain('rank of the last-ranked claim of the hot bounty', () =>
  claimsRepo.claimRank(db, lastClaim),
);
await explain('rank of a claim in an ordinary bounty', () =>
  claimsRepo.claimRank(db, lastClaim + 1),
);
await explain('earlier vote lookup', () => votesRepo.findVote(db, lastClaim, 5));
await explain('rounds due for closing', () => bountiesRepo.dueRounds(db, new Date(), 100));
await db.execute(sql`select 1`);
await close();
