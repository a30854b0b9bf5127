/**
 * The feed search's one-word path (search.bounty_prefixes, migration 0007) and two-word path
 * (search.bounty_prefix_pairs, migration 0008) against the reference (every match ranked with
 * ts_rank): the same rows in the same order for every prefix of every title word and for pairs
 * of them, page by page, on generated titles plus awkward ones (repeated
 * words, shared prefixes, hyphens, digits, other scripts, equal timestamps, hidden, renamed,
 * moved and deleted bounties). Runs on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bountyAnswer, FEED_CLAIMS_PER_ROUND } from '@bountyhunt/shared/bounties';
import { generateData } from '../../../bench/generate';
import { rng } from '../../../bench/words';
import { createTestDatabase, type TestDatabase } from '../../../test/helper';
import { queryRows, type Db } from '../../db/client';
import { groupRounds, presentBounty } from './bounties.present';
import { toPrefixQuery } from './bounties.service';
import { roundsWithClaims } from './claims.repository';
import {
  bountyRows,
  isSearchRow,
  prefixPair,
  searchBounties,
  singlePrefix,
  type SearchCursor,
  type SearchHit,
} from './search.repository';

let tdb: TestDatabase;
let db: Db;
let mediaDir: string;

/** Titles the generator does not make: each exercises a way ts_rank or the prefixes differ. */
const AWKWARD = [
  'Zebra zebra zebra stripes',
  'Zebra crossing at night',
  'Photograph a wild zebra',
  'cat cat',
  'cat catalogue category',
  'Catalogue of cats',
  'Upside-down umbrella upside down',
  "Don't stop: the owl's nest",
  'R2D2 and 3CPO at 1e5 metres, 42 times',
  '2024 sunset 2024',
  'Café crème brûlée',
  'Straße in München',
  'Ζώα στο δάσος',
  'a a a a a a a a a a',
  'supercalifragilisticexpialidocious sunset',
  '!!! ??? ...',
  'sun sunny sunset sunrise sundial',
  'Category: cat photo of a catalogue of photos',
  'Photos photos photos of the cathedral',
];

const pageOf = (rows: SearchHit[]) =>
  rows.map((r) => ({ id: r.id, rank: Number(r.rank), created: r.created_key }));

/** How many bounties are hidden, and the rows a search table holds for them. */
async function hiddenRows(table: 'bounty_prefixes' | 'bounty_prefix_pairs') {
  const [r] = await queryRows<{ hidden: number; rows: number }>(
    db,
    sql`select (select count(*)::int from bounties where hidden_at is not null) as hidden,
          (select count(*)::int from ${sql.raw(`search.${table}`)} t join bounties b on b.id = t.bounty_id
            where b.hidden_at is not null) as rows`,
  );
  return r;
}

/** The titles of the hits, in their order (the walks answer hits without columns). */
async function titlesOf(hits: SearchHit[]): Promise<string[]> {
  const rows = await bountyRows(
    db,
    hits.map((h) => h.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r.title]));
  return hits.map((h) => byId.get(h.id) ?? '(no row)');
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.handle.db;
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bh-search-media-'));
  await generateData(tdb.handle, {
    bounties: 240,
    claimsPerBounty: 1,
    members: 5,
    imagePool: 1,
    mediaDir,
    spanDays: 3,
  });
  const [{ id: userId }] = (await queryRows<{ id: number }>(
    db,
    sql`select id from users order by id limit 1`,
  )) as [{ id: number }];
  // Three copies of each awkward title: two at the same instant (ties go to the higher id).
  const at = new Date('2026-01-02T03:04:05.123456Z').toISOString();
  for (const [k, title] of AWKWARD.entries()) {
    for (let copy = 0; copy < 3; copy++) {
      const created = copy < 2 ? at : new Date(Date.parse(at) - (k + 1) * 1000).toISOString();
      await db.execute(
        sql`insert into bounties (user_id, title, created_at) values (${userId}, ${title}, ${created}::timestamptz)`,
      );
    }
  }
  // One statement inserting many rows (as the bench generator and a restore do).
  await db.execute(
    sql`insert into bounties (user_id, title, created_at)
        select ${userId}, 'Bulk zebra number ' || g, ${at}::timestamptz - g * interval '1 ms'
        from generate_series(1, 30) g`,
  );
  // Hidden, renamed, moved in time, deleted.
  await db.execute(
    sql`update bounties set hidden_at = now() where id in (select id from bounties order by id desc limit 5)`,
  );
  await db.execute(
    sql`update bounties set title = 'Renamed zebra zebra catalogue' where id = (select min(id) from bounties)`,
  );
  await db.execute(
    sql`update bounties set created_at = created_at + interval '400 days' where id = (select min(id) + 1 from bounties)`,
  );
  await db.execute(
    sql`delete from bounties where title = 'cat cat' and id = (select max(id) from bounties where title = 'cat cat')`,
  );
}, 120_000);

afterAll(async () => {
  await tdb?.drop();
  fs.rmSync(mediaDir, { recursive: true, force: true });
});

/** Every one-word term worth asking: each stored ASCII prefix, and words that match nothing. */
async function oneWordTerms(): Promise<string[]> {
  const rows = await queryRows<{ prefix: string }>(
    db,
    sql`select distinct prefix from search.bounty_prefixes where prefix ~ '^[a-z0-9]+$' order by prefix`,
  );
  return [...rows.map((r) => r.prefix), 'zebraz', 'xyzzy', '9', 'qq0'];
}

async function walk(tsquery: string, limit: number, rankAll: boolean, excludeId?: number) {
  const out: SearchHit[] = [];
  let after: SearchCursor | undefined;
  for (let i = 0; i < 1000; i++) {
    const rows = await searchBounties(db, {
      tsquery,
      limit: limit + 1,
      rankAll,
      ...(after ? { after } : {}),
      ...(excludeId !== undefined ? { excludeId } : {}),
    });
    const page = rows.slice(0, limit);
    out.push(...page);
    const last = page[page.length - 1];
    if (rows.length <= limit || !last) break;
    after = { r: Number(last.rank), c: last.created_key, i: last.id };
  }
  return out;
}

describe('feed search, one word (search.bounty_prefixes)', () => {
  it('keeps a word of letters and digits as one lexeme equal to itself', async () => {
    const rand = rng(7);
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const words = ['1e5', '0x1f', 'e1', '123', '00012', 'r2d2', 'a', 'z9z9z9'];
    for (let i = 0; i < 300; i++) {
      const n = 1 + Math.floor(rand() * 12);
      words.push(
        Array.from({ length: n }, () => chars[Math.floor(rand() * chars.length)]).join(''),
      );
    }
    const rows = await queryRows<{ w: string; q: string }>(
      db,
      sql`select w, to_tsquery('simple', w || ':*')::text as q from jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) w`,
    );
    for (const r of rows) expect(r.q, r.w).toBe(`'${r.w}':*`);
    for (const w of words) expect(singlePrefix(toPrefixQuery(w)!)).toBe(w);
    expect(singlePrefix(toPrefixQuery('cat dog')!)).toBeNull();
    expect(singlePrefix(toPrefixQuery('café')!)).toBeNull();
  });

  it('stores ts_rank of the one-word query and the bounty creation time', async () => {
    const [bad] = await queryRows<{ rank: number; created: number; n: number }>(
      db,
      sql`select count(*) filter (where t.rank <> ts_rank(b.search, to_tsquery('simple', t.prefix || ':*')))::int as rank,
            count(*) filter (where t.created_at <> b.created_at)::int as created, count(*)::int as n
          from search.bounty_prefixes t join bounties b on b.id = t.bounty_id
          where t.prefix ~ '^[a-z0-9]+$'`,
    );
    expect(bad!.n).toBeGreaterThan(1000);
    expect(bad).toMatchObject({ rank: 0, created: 0 });
    // A bounty not hidden has a row for a prefix exactly when it matches the prefix query; a
    // hidden one has none (migration 0009).
    const [mismatch] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select distinct prefix from search.bounty_prefixes
            where prefix ~ '^[a-z0-9]+$') p, bounties b
          where (b.hidden_at is null and b.search @@ to_tsquery('simple', p.prefix || ':*')) <>
            exists (select 1 from search.bounty_prefixes t where t.prefix = p.prefix and t.bounty_id = b.id)`,
    );
    expect(mismatch!.n).toBe(0);
    expect(await hiddenRows('bounty_prefixes')).toEqual({ hidden: 5, rows: 0 });
  });

  it('gives the same rows in the same order as ranking every match, for every prefix', async () => {
    const terms = await oneWordTerms();
    expect(terms.length).toBeGreaterThan(300);
    let nonEmpty = 0;
    for (const w of terms) {
      const q = toPrefixQuery(w)!;
      const [fast, all] = await Promise.all([
        searchBounties(db, { tsquery: q, limit: 2000 }),
        searchBounties(db, { tsquery: q, limit: 2000, rankAll: true }),
      ]);
      expect(pageOf(fast), w).toEqual(pageOf(all));
      if (all.length) nonEmpty++;
    }
    // Some prefixes belong to hidden bounties only; the rest find something.
    expect(nonEmpty).toBeGreaterThan(terms.length - 20);
    // Ranks do differ within a term: the order is not just recency.
    const zeb = await searchBounties(db, { tsquery: 'zeb:*', limit: 2000 });
    expect(new Set(zeb.map((r) => Number(r.rank))).size).toBeGreaterThan(2);
    expect(await titlesOf(zeb.slice(0, 1))).toEqual(['Zebra zebra zebra stripes']);
  });

  it('pages through the cursor, with excludeId, as the reference does', async () => {
    const terms = (await oneWordTerms()).filter(
      (w, i) => i % 7 === 0 || ['s', 'c', 'ca', 'cat', 'zebra', 'a', 'in', 'the'].includes(w),
    );
    for (const w of terms) {
      const q = toPrefixQuery(w)!;
      const full = await searchBounties(db, { tsquery: q, limit: 2000, rankAll: true });
      const paged = await walk(q, 4, false);
      expect(pageOf(paged), w).toEqual(pageOf(full));
      const excluded = full[Math.floor(full.length / 2)]?.id;
      if (excluded === undefined) continue;
      expect(pageOf(await walk(q, 3, false, excluded)), w).toEqual(
        pageOf(await walk(q, 3, true, excluded)),
      );
    }
  });

  it('follows renamed, moved and deleted bounties and skips hidden ones', async () => {
    const renamed = await searchBounties(db, { tsquery: 'renamed:*', limit: 10 });
    expect(await titlesOf(renamed)).toEqual(['Renamed zebra zebra catalogue']);
    const [stale] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from search.bounty_prefixes t
          where not exists (select 1 from bounties b where b.id = t.bounty_id
            and t.prefix = any(select left(l.lexeme, n) from unnest(b.search) l,
              generate_series(1, length(l.lexeme)) n))`,
    );
    expect(stale!.n).toBe(0);
    const hidden = await queryRows<{ id: number }>(
      db,
      sql`select id from bounties where hidden_at is not null`,
    );
    const bulk = await searchBounties(db, { tsquery: 'bulk:*', limit: 100 });
    expect(bulk.length).toBe(30 - hidden.length);
    for (const h of hidden) expect(bulk.map((r) => r.id)).not.toContain(h.id);
    expect((await searchBounties(db, { tsquery: 'cat:*', limit: 100 })).length).toBe(
      (await searchBounties(db, { tsquery: 'cat:*', limit: 100, rankAll: true })).length,
    );
  });
});

/**
 * Two-word terms worth asking: pairs of stored prefixes (every seventh, and every pair of the
 * awkward titles), then ones the pair index does not hold (short, nested, other scripts).
 */
async function twoWordTerms(): Promise<string[]> {
  const rows = await queryRows<{ a: string; b: string; n: number; awkward: boolean }>(
    db,
    sql`select prefix_a as a, prefix_b as b,
          (row_number() over (order by prefix_a, prefix_b))::int as n,
          bool_or(b.title in (select jsonb_array_elements_text(${JSON.stringify(AWKWARD)}::jsonb))) as awkward
        from search.bounty_prefix_pairs t join bounties b on b.id = t.bounty_id
        group by prefix_a, prefix_b order by prefix_a, prefix_b`,
  );
  const terms = rows.filter((r) => r.n % 7 === 0 || r.awkward).map((r) => `${r.b} ${r.a}`);
  return [
    ...terms,
    'cat pho',
    'photo cathedral',
    'zebra stripes',
    'zebra zebraz',
    'xyzzy sunset',
    'sun sunset',
    'sunset sun',
    'at golden',
    'a sunset',
    'café crème',
    'stra münchen',
  ];
}

describe('feed search, two words (search.bounty_prefix_pairs)', () => {
  it('takes the pair index for two ASCII words of 3 letters or more, neither a prefix of the other', () => {
    expect(prefixPair(toPrefixQuery('dog cat')!)).toEqual(['cat', 'dog']);
    expect(prefixPair(toPrefixQuery('Sunset GOLD')!)).toEqual(['gold', 'sunset']);
    expect(prefixPair(toPrefixQuery('r2d2 3cpo')!)).toEqual(['3cpo', 'r2d2']);
    expect(prefixPair(toPrefixQuery('sun sunset')!)).toBeNull();
    expect(prefixPair(toPrefixQuery('sunset sun')!)).toBeNull();
    expect(prefixPair(toPrefixQuery('at golden')!)).toBeNull();
    expect(prefixPair(toPrefixQuery('cat dog owl')!)).toBeNull();
    expect(prefixPair(toPrefixQuery('café crème')!)).toBeNull();
    expect(prefixPair(toPrefixQuery('cat')!)).toBeNull();
  });

  it('stores ts_rank of the two-word query for exactly the bounties that match it', async () => {
    const [bad] = await queryRows<{ rank: number; created: number; order: number; n: number }>(
      db,
      sql`select count(*) filter (where t.rank <> ts_rank(b.search,
              to_tsquery('simple', t.prefix_a || ':* & ' || t.prefix_b || ':*')))::int as rank,
            count(*) filter (where t.created_at <> b.created_at)::int as created,
            count(*) filter (where not (t.prefix_a collate "C" < t.prefix_b collate "C")
              or starts_with(t.prefix_b, t.prefix_a) or length(t.prefix_a) < 3)::int as order,
            count(*)::int as n
          from search.bounty_prefix_pairs t join bounties b on b.id = t.bounty_id`,
    );
    expect(bad!.n).toBeGreaterThan(5000);
    expect(bad).toMatchObject({ rank: 0, created: 0, order: 0 });
    // A bounty has a row for a pair exactly when it matches the pair's query (every twentieth pair).
    const [mismatch] = await queryRows<{ n: number; pairs: number }>(
      db,
      sql`with p as (select prefix_a, prefix_b from (select distinct prefix_a, prefix_b
            from search.bounty_prefix_pairs) d order by 1, 2)
          select count(*) filter (where (b.hidden_at is null
                and b.search @@ to_tsquery('simple', p.prefix_a || ':* & ' || p.prefix_b || ':*')) <>
              exists (select 1 from search.bounty_prefix_pairs t where t.prefix_a = p.prefix_a
                and t.prefix_b = p.prefix_b and t.bounty_id = b.id))::int as n,
            count(distinct (p.prefix_a, p.prefix_b))::int as pairs
          from (select * from p where hashtext(prefix_a || prefix_b) % 20 = 0) p, bounties b`,
    );
    expect(mismatch!.pairs).toBeGreaterThan(100);
    expect(mismatch!.n).toBe(0);
    expect(await hiddenRows('bounty_prefix_pairs')).toEqual({ hidden: 5, rows: 0 });
  });

  it('gives the same rows in the same order as ranking every match', async () => {
    const terms = await twoWordTerms();
    expect(terms.length).toBeGreaterThan(300);
    let paired = 0;
    for (const w of terms) {
      const q = toPrefixQuery(w)!;
      if (prefixPair(q)) paired++;
      const [fast, all] = await Promise.all([
        searchBounties(db, { tsquery: q, limit: 2000 }),
        searchBounties(db, { tsquery: q, limit: 2000, rankAll: true }),
      ]);
      expect(pageOf(fast), w).toEqual(pageOf(all));
    }
    expect(paired).toBeGreaterThan(300);
    // Ranks differ within a term (word distance and repeats count), so order is not recency.
    const photos = await searchBounties(db, { tsquery: toPrefixQuery('photo cat')!, limit: 100 });
    expect(new Set(photos.map((r) => Number(r.rank))).size).toBeGreaterThan(1);
  });

  it('pages through the cursor, with excludeId, as the reference does', async () => {
    const terms = (await twoWordTerms()).filter((_, i) => i % 5 === 0);
    for (const w of [...terms, 'cat pho', 'zebra stripes']) {
      const q = toPrefixQuery(w)!;
      const full = await searchBounties(db, { tsquery: q, limit: 2000, rankAll: true });
      expect(pageOf(await walk(q, 2, false)), w).toEqual(pageOf(full));
      const excluded = full[Math.floor(full.length / 2)]?.id;
      if (excluded === undefined) continue;
      expect(pageOf(await walk(q, 2, false, excluded)), w).toEqual(
        pageOf(await walk(q, 2, true, excluded)),
      );
    }
  });

  it('follows renamed, moved and deleted bounties and skips hidden ones', async () => {
    const renamed = await searchBounties(db, {
      tsquery: toPrefixQuery('zebra renamed')!,
      limit: 10,
    });
    expect(await titlesOf(renamed)).toEqual(['Renamed zebra zebra catalogue']);
    const [stale] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from search.bounty_prefix_pairs t join bounties b on b.id = t.bounty_id
          where not (b.search @@ to_tsquery('simple', t.prefix_a || ':* & ' || t.prefix_b || ':*'))`,
    );
    expect(stale!.n).toBe(0);
    const hidden = await queryRows<{ id: number }>(
      db,
      sql`select id from bounties where hidden_at is not null`,
    );
    const bulk = await searchBounties(db, { tsquery: toPrefixQuery('bulk zebra')!, limit: 100 });
    expect(bulk.length).toBe(30 - hidden.length);
    for (const h of hidden) expect(bulk.map((r) => r.id)).not.toContain(h.id);
  });
});

describe('hiding a bounty (migration 0009)', () => {
  it("deletes the bounty's search rows in the same statement and writes them back when shown", async () => {
    const [b] = await queryRows<{ id: number; title: string }>(
      db,
      sql`select id, title from bounties where hidden_at is null and title like 'Bulk zebra number %'
          order by id limit 1`,
    );
    const rowsOf = async () =>
      (
        await queryRows<{ one: number; pair: number }>(
          db,
          sql`select (select count(*)::int from search.bounty_prefixes where bounty_id = ${b!.id}) as one,
            (select count(*)::int from search.bounty_prefix_pairs where bounty_id = ${b!.id}) as pair`,
        )
      )[0];
    const found = async (term: string) =>
      (await searchBounties(db, { tsquery: toPrefixQuery(term)!, limit: 100 })).map((h) => h.id);
    const before = await rowsOf();
    expect(before!.one).toBeGreaterThan(5);
    expect(before!.pair).toBeGreaterThan(5);
    expect(await found('number')).toContain(b!.id);

    await db.execute(sql`update bounties set hidden_at = now() where id = ${b!.id}`);
    expect(await rowsOf()).toEqual({ one: 0, pair: 0 });
    expect(await found('number')).not.toContain(b!.id);
    expect(await found('bulk zebra')).not.toContain(b!.id);
    // Hidden again later, and renamed while hidden: still nothing.
    await db.execute(
      sql`update bounties set hidden_at = now() + interval '1 second', title = 'Bulk zebra retitled'
          where id = ${b!.id}`,
    );
    expect(await rowsOf()).toEqual({ one: 0, pair: 0 });
    expect(await found('retitled')).toEqual([]);

    // Shown again: found by its new title, in the reference's order.
    await db.execute(sql`update bounties set hidden_at = null where id = ${b!.id}`);
    expect(await found('retitled')).toEqual([b!.id]);
    expect(await found('bulk retit')).toEqual([b!.id]);
    await db.execute(sql`update bounties set title = ${b!.title} where id = ${b!.id}`);
    expect(await rowsOf()).toEqual(before);
    for (const term of ['number', 'bulk zebra', 'zebra numb']) {
      const q = toPrefixQuery(term)!;
      const [fast, all] = await Promise.all([
        searchBounties(db, { tsquery: q, limit: 100 }),
        searchBounties(db, { tsquery: q, limit: 100, rankAll: true }),
      ]);
      expect(pageOf(fast), term).toEqual(pageOf(all));
      expect(fast.map((h) => h.id)).toContain(b!.id);
    }
  });
});

describe('a bounty inserted hidden (a restore, migration 0009)', () => {
  it('gets no search rows, alone or among others in one statement', async () => {
    const [u] = await queryRows<{ id: number }>(db, sql`select id from users order by id limit 1`);
    const made = await queryRows<{ id: number; hidden: boolean }>(
      db,
      sql`insert into bounties (user_id, title, hidden_at)
          select ${u!.id}, 'Restored ocelot canopy ' || g, case when g % 2 = 0 then now() end
          from generate_series(1, 4) g
          returning id, hidden_at is not null as hidden`,
    );
    const [alone] = await queryRows<{ id: number }>(
      db,
      sql`insert into bounties (user_id, title, hidden_at)
          values (${u!.id}, 'Restored ocelot canopy alone', now()) returning id`,
    );
    const hidden = [...made.filter((b) => b.hidden).map((b) => b.id), alone!.id];
    const ids = `{${hidden.join(',')}}`;
    const [rows] = await queryRows<{ one: number; pair: number }>(
      db,
      sql`select (select count(*)::int from search.bounty_prefixes
                  where bounty_id = any(${ids}::int4[])) as one,
            (select count(*)::int from search.bounty_prefix_pairs
                  where bounty_id = any(${ids}::int4[])) as pair`,
    );
    expect(rows).toEqual({ one: 0, pair: 0 });
    const shown = made.filter((b) => !b.hidden).map((b) => b.id);
    for (const term of ['ocelot', 'ocelot canopy']) {
      const found = (await searchBounties(db, { tsquery: toPrefixQuery(term)!, limit: 10 })).map(
        (h) => h.id,
      );
      expect(found.sort(), term).toEqual([...shown].sort());
    }
    await db.execute(sql`delete from bounties where title like 'Restored ocelot canopy%'`);
  });
});

describe('feed items', () => {
  it('are written as z.encode(bountyAnswer) would write them, for every bounty of the data', async () => {
    // BountiesService.buildItems writes presentBounty's object without encoding it again.
    // Newest first with no term: rows with the bounties' columns.
    const rows = (await searchBounties(db, { tsquery: null, limit: 2000 })).filter(isSearchRow);
    expect(rows.length).toBeGreaterThan(250);
    const rounds = groupRounds(
      await roundsWithClaims(
        db,
        rows.map((r) => r.id),
        FEED_CLAIMS_PER_ROUND,
      ),
    );
    const statuses = new Set<string>();
    let claims = 0;
    for (const r of rows) {
      const item = presentBounty(r, rounds.get(r.id) ?? []);
      expect(JSON.stringify(item), String(r.id)).toBe(JSON.stringify(z.encode(bountyAnswer, item)));
      statuses.add(item.status);
      for (const round of item.rounds) {
        claims += round.claims.length;
        for (const c of round.claims)
          expect(c.round).toEqual({ roundId: round.roundId, endDate: round.endDate });
      }
    }
    expect([...statuses].sort()).toEqual(['decided', 'open']);
    expect(claims).toBeGreaterThan(200);
  });
});
