/**
 * Data for the web benchmark (`npm run bench:web`, e2e/bench/web-bench.mjs): migrates the
 * configured database (DATABASE_URL, else the embedded PGlite in DATA_DIR/db), fills it with
 * the bench generator (image derivatives in DATA_DIR/media), adds one signed-in member with
 * an active membership, and prints one JSON line naming what the benchmark measures:
 *   {"token", "bountyId", "claimId", "handle", "handles", "rows"}
 * The bounty is the newest open one with the most image claims, the claim its most voted,
 * and the hunter the one with the most claims (picture, banner and posts come with every
 * generated hunter). `handles` are the next hunters by claims: the benchmark opens the
 * member's conversations with them (through the API) for /message.
 *
 *   tsx apps/api/bench/web-fixture.ts --bounties N --claims-per-bounty K --members M
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, runMigrations } from '../src/db/client';
import { loadConfig } from '../src/env';
import { addVoters } from './fixtures';
import { generateData } from './generate';
import { rawConnection } from './raw-db';

const { values } = parseArgs({
  options: {
    bounties: { type: 'string', default: '300' },
    'claims-per-bounty': { type: 'string', default: '12' },
    members: { type: 'string', default: '200' },
    images: { type: 'string', default: '24' },
  },
});

const int = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`expected a whole number, got "${v}"`);
  return n;
};

const config = loadConfig();
const handle = await createDatabase(config.databaseUrl, { poolSize: 2 });
try {
  await runMigrations(handle);
  const result = await generateData(handle, {
    bounties: int(values.bounties),
    claimsPerBounty: int(values['claims-per-bounty']),
    members: int(values.members),
    imagePool: int(values.images),
    mediaDir: path.join(config.dataDir, 'media'),
    // Recent bounties, so the feed's first page has open rounds as well as decided ones.
    spanDays: 10,
    log: (m) => console.error(`  ${m}`),
  });
  const q = await rawConnection(handle);
  try {
    const [member] = await addVoters(q, 1);
    const [bounty] = await q.query<{ id: number }>(
      `select b.id from bounties b
         join rounds r on r.bounty_id = b.id and r.number = b.round_count
         join claims c on c.bounty_id = b.id and c.round_number = b.round_count
        where r.closed_at is null and c.media like 'i-%'
        group by b.id
        order by count(*) desc, b.id desc
        limit 1`,
    );
    const [claim] = await q.query<{ id: number }>(
      `select id from claims where bounty_id = $1 order by votes desc, id limit 1`,
      [bounty?.id],
    );
    const [hunter, ...others] = await q.query<{ handle: string }>(
      `select u.handle from hunters h
         join users u on u.id = h.user_id
         join claims c on c.hunter_id = h.id
        where h.picture is not null and h.banner is not null
        group by u.handle
        order by count(*) desc, u.handle
        limit 6`,
    );
    if (!member || !bounty || !claim || !hunter)
      throw new Error('the generated data lacks an open bounty, a claim or a hunter');
    console.log(
      JSON.stringify({
        token: member.token,
        bountyId: bounty.id,
        claimId: claim.id,
        handle: hunter.handle,
        handles: others.map((h) => h.handle),
        rows: result.rows,
      }),
    );
  } finally {
    await q.release();
  }
} finally {
  await handle.close();
}
