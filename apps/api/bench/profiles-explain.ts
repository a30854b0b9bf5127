/**
 * Checks that the profile queries stay fast on a hunter with thousands of posts and claims.
 *
 *   npx tsx apps/api/bench/profiles-explain.ts                       # embedded PGlite
 *   npx tsx apps/api/bench/profiles-explain.ts postgres://postgres@127.0.0.1:5432/postgres
 *
 * On PostgreSQL it creates (and drops) its own database next to the one named. It loads a
 * generated data set (one big hunter, many others), prints the EXPLAIN ANALYZE plan of each
 * profile query and the median time of repeated runs, for the big hunter and a small one, on the
 * first page and deep in the list, and fails if a plan scans a whole posts or claims table.
 */
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase, queryRows, runMigrations, type Db } from '../src/db/client';
import { type Keyset } from '../src/db/keyset';
import { hunterClaimsPageQuery as claimsPageQuery } from '../src/modules/bounties/bounties.read';
import {
  directoryPageQuery,
  hunterStatsQuery,
  postsPageQuery,
} from '../src/modules/profiles/profiles.repository';

const SIZES = {
  hunters: Number(process.env.HUNTERS ?? 500),
  bounties: Number(process.env.BOUNTIES ?? 20_000),
  /** Posts and claims of the big hunter (hunters.id = 1). */
  big: Number(process.env.BIG ?? 10_000),
  /** Claims and posts of everyone else together. */
  otherClaims: Number(process.env.OTHER_CLAIMS ?? 200_000),
  otherPosts: Number(process.env.OTHER_POSTS ?? 50_000),
};
const RUNS = Number(process.env.RUNS ?? 30);
const PAGE = 21;

async function load(db: Db) {
  const s = SIZES;
  const steps: SQL[] = [
    sql`insert into users (email, password_hash, role, handle)
        select 'h' || g || '@bench.test', 'x', 2, 'hunter' || g from generate_series(1, ${s.hunters}) g`,
    sql`insert into users (email, password_hash, role) values ('poster@bench.test', 'x', 1)`,
    sql`insert into hunters (user_id, stagename)
        select id, 'Stage ' || id from users where role = 2 order by id`,
    sql`insert into bounties (user_id, title)
        select (select id from users where role = 1), 'Bounty ' || g
        from generate_series(1, ${s.bounties}) g`,
    sql`insert into rounds (bounty_id, number, end_date)
        select id, 1, now() + interval '1 day' from bounties`,
    // The big hunter: one claim a minute, spread over all bounties.
    sql`insert into claims (bounty_id, round_number, hunter_id, media, votes, created_at)
        select 1 + (g % ${s.bounties}), 1, 1, 'i-big' || g, (random() * 40)::int,
               now() - (g || ' minutes')::interval
        from generate_series(1, ${s.big}) g`,
    sql`insert into posts (hunter_id, file, text, created_at)
        select 1, 'i-bigpost' || g, 'post ' || g, now() - (g || ' minutes')::interval - interval '30 seconds'
        from generate_series(1, ${s.big}) g`,
    sql`insert into claims (bounty_id, round_number, hunter_id, media, votes, created_at)
        select 1 + (g % ${s.bounties}), 1, 2 + (g % (${s.hunters} - 1)), 'i-c' || g,
               (random() * 40)::int, now() - (random() * 525600 || ' minutes')::interval
        from generate_series(1, ${s.otherClaims}) g`,
    sql`insert into posts (hunter_id, file, text, created_at)
        select 2 + (g % (${s.hunters} - 1)), 'i-p' || g, 'post ' || g,
               now() - (random() * 525600 || ' minutes')::interval
        from generate_series(1, ${s.otherPosts}) g`,
    sql`vacuum analyze`,
  ];
  for (const step of steps) await db.execute(step);
}

async function plan(db: Db, query: SQL): Promise<string> {
  const rows = await queryRows<Record<string, string>>(
    db,
    sql`explain (analyze, costs off, timing off, summary off) ${query}`,
  );
  return rows.map((r) => Object.values(r)[0]).join('\n');
}

async function median(db: Db, query: SQL): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await db.execute(query);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The keyset of the row `offset` places down the list, as the service would put in a cursor. */
async function keysetAt(db: Db, table: 'posts' | 'claims', hunterId: number, offset: number) {
  const [row] = await queryRows<{ ts: string; id: number }>(
    db,
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ts, id
        from ${sql.raw(table)} where hunter_id = ${hunterId}
        order by created_at desc, id desc offset ${offset} limit 1`,
  );
  return { ts: row!.ts, id: Number(row!.id), mode: 'by-id' } satisfies Keyset;
}

async function main() {
  const url = process.argv[2];
  let db: Db;
  let cleanup: () => Promise<void>;
  let label: string;
  if (url?.startsWith('postgres')) {
    const name = `bh_profiles_explain_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const handle = await createDatabase(u.toString(), { poolSize: 2 });
    await runMigrations(handle);
    db = handle.db;
    label = 'PostgreSQL';
    cleanup = async () => {
      await handle.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const handle = await createDatabase('memory://');
    await runMigrations(handle);
    db = handle.db;
    label = 'PGlite';
    cleanup = () => handle.close();
  }

  const t0 = performance.now();
  await load(db);
  const [counts] = await queryRows<{ posts: string; claims: string }>(
    db,
    sql`select (select count(*) from posts) as posts, (select count(*) from claims) as claims`,
  );
  console.log(
    `# ${label}: ${SIZES.hunters} hunters, ${counts!.posts} posts, ${counts!.claims} claims ` +
      `(big hunter: ${SIZES.big} posts + ${SIZES.big} claims), loaded in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const small = 2 + 7; // an ordinary hunter
  const deep = SIZES.big - PAGE - 1;
  const cases: [string, SQL][] = [
    ['stats, big hunter', hunterStatsQuery(1)],
    ['stats, small hunter', hunterStatsQuery(small)],
    ['posts page 1, big hunter', postsPageQuery(1, PAGE)],
    [
      `posts page at row ${deep}, big hunter`,
      postsPageQuery(1, PAGE, await keysetAt(db, 'posts', 1, deep)),
    ],
    ['posts page 1, small hunter', postsPageQuery(small, PAGE)],
    ['claims page 1 with rank, big hunter', claimsPageQuery(1, PAGE)],
    [
      `claims page at row ${deep} with rank, big hunter`,
      claimsPageQuery(1, PAGE, await keysetAt(db, 'claims', 1, deep)),
    ],
    ['claims page 1 with rank, small hunter', claimsPageQuery(small, PAGE)],
    [
      'feed: claims side after a post cursor (inclusive)',
      claimsPageQuery(1, PAGE, { ...(await keysetAt(db, 'posts', 1, 5000)), mode: 'inclusive' }),
    ],
    [
      'feed: posts side after a claim cursor (strict)',
      postsPageQuery(1, PAGE, { ...(await keysetAt(db, 'claims', 1, 5000)), mode: 'strict' }),
    ],
    ['directory page 1', directoryPageQuery({ limit: 25 })],
    ['directory page after hunter400', directoryPageQuery({ limit: 25, afterHandle: 'hunter400' })],
    ['directory search "unter12"', directoryPageQuery({ limit: 25, term: 'unter12' })],
  ];

  const table: string[] = ['| query | median ms | plan uses |', '|---|---:|---|'];
  let bad = 0;
  for (const [name, query] of cases) {
    const text = await plan(db, query);
    const ms = await median(db, query);
    const seqOnBig = /Seq Scan on (posts|claims)\b/.test(text);
    if (seqOnBig) bad += 1;
    const uses = [
      ...new Set(
        [...text.matchAll(/(Index(?: Only)? Scan)[^\n]* using (\w+)/g)].map(
          (m) => `${m[1]} ${m[2]}`,
        ),
      ),
    ];
    console.log(
      `## ${name}: ${ms.toFixed(2)} ms${seqOnBig ? '  ** SEQ SCAN ON A BIG TABLE **' : ''}\n${text}\n`,
    );
    table.push(`| ${name} | ${ms.toFixed(2)} | ${uses.join(', ') || '-'} |`);
  }
  console.log(table.join('\n'));
  await cleanup();
  if (bad > 0) {
    console.error(`\n${bad} plan(s) scan a whole posts or claims table.`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
