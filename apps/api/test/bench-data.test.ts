/** The benchmark data generator writes consistent rows on both databases. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client';
import { sql } from 'drizzle-orm';
import { generateData, type GenerateResult } from '../bench/generate';
import { createTestDatabase, type TestDatabase } from './helper';

describe('bench data generator', () => {
  let db: TestDatabase;
  let mediaDir: string;
  let result: GenerateResult;

  beforeAll(async () => {
    db = await createTestDatabase();
    mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-bench-media-'));
    result = await generateData(db.handle, {
      bounties: 60,
      claimsPerBounty: 4,
      members: 40,
      imagePool: 3,
      mediaDir,
    });
  });
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  const one = async <T>(query: ReturnType<typeof sql>) =>
    (await queryRows<T>(db.handle.db, query))[0]!;

  it('writes the requested numbers of rows', async () => {
    expect(result.rows.bounties).toBe(60);
    expect(result.rows.claims).toBe(240);
    const counts = await one<{ b: number; c: number; m: number; h: number }>(sql`
      select (select count(*)::int from bounties) as b, (select count(*)::int from claims) as c,
             (select count(*)::int from users where role = 1) as m,
             (select count(*)::int from hunters) as h`);
    expect(counts).toEqual({ b: 60, c: 240, m: 40, h: 12 });
  });

  it('keeps vote totals equal to a recount, per claim and per member', async () => {
    const bad = await one<{ claims: number; users: number; votes: number }>(sql`
      select
        (select count(*)::int from claims c
          where c.votes <> coalesce((select sum(value) from votes v where v.claim_id = c.id), 0)) as claims,
        (select count(*)::int from users u where u.role = 1
          and u.votes <> coalesce((select sum(value) from votes v where v.user_id = u.id), 0)) as users,
        (select count(*)::int from votes) as votes`);
    expect(bad.claims).toBe(0);
    expect(bad.users).toBe(0);
    expect(bad.votes).toBeGreaterThan(0);
  });

  it('decides ended bounties for the top claim of the last round', async () => {
    const r = await one<{ decided: number; wrong: number; open: number }>(sql`
      select
        (select count(*)::int from bounties where status = 'decided') as decided,
        (select count(*)::int from bounties where status = 'open') as open,
        (select count(*)::int from bounties b where b.status = 'decided' and b.winner_claim_id is distinct from
          (select c.id from claims c where c.bounty_id = b.id and c.round_number = b.round_count
            order by c.votes desc, c.created_at, c.id limit 1)) as wrong`);
    expect(r.decided + r.open).toBe(60);
    expect(r.wrong).toBe(0);
  });

  it('uses image keys whose derivatives exist', async () => {
    const rows = await queryRows<{ media: string }>(
      db.handle.db,
      sql`select distinct media from claims`,
    );
    expect(rows.length).toBe(3);
    for (const { media } of rows) {
      expect(media.startsWith('i-')).toBe(true);
      expect(fs.existsSync(path.join(mediaDir, `${media}-f.webp`))).toBe(true);
      expect(fs.existsSync(path.join(mediaDir, `${media}-t.webp`))).toBe(true);
    }
  });

  it('appends on a second run and keeps the id sequences usable', async () => {
    const again = await generateData(db.handle, {
      bounties: 5,
      claimsPerBounty: 2,
      members: 3,
      hunters: 1,
      imagePool: 1,
    });
    expect(again.bounties.firstId).toBe(result.bounties.lastId + 1);
    const [row] = await queryRows<{ id: number }>(
      db.handle.db,
      sql`insert into bounties (user_id, title) values (${again.members.firstId}, 'after') returning id`,
    );
    expect(row!.id).toBe(again.bounties.lastId + 1);
  });
});
