/**
 * Bulk data generator for benchmarks: members, hunters, bounties with rounds, claims with
 * image keys whose derivatives exist, and votes with a long tail, written with multi-row
 * `unnest` inserts (one round trip per 20,000 rows) on PostgreSQL or PGlite.
 *
 * Rows are appended after whatever the database holds (ids continue from the current
 * maximum), so it can run on a database that already has data.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { DatabaseHandle } from '../src/db/client';
import { PLANS } from '@bountyhunt/shared/billing';
import { MICROS_PER_CENT } from '@bountyhunt/shared/payouts';
import { loadConfig } from '../src/env';
import { hashPassword } from '../src/lib/password';
import { artSvg } from '../src/seed/art';
import { bulkInsert, maxId, rawConnection, syncSequence, type RawDb } from './raw-db';
import { BIO_BITS, bountyTitle, pick, POST_TEXTS, rng } from './words';

export const BENCH_PASSWORD = 'Bench-pass1!';

const HOUR = 3600;
const DURATIONS = [8 * HOUR, 24 * HOUR, 168 * HOUR, 720 * HOUR] as const;
const DURATION_WEIGHTS = [0.2, 0.4, 0.25, 0.15];
const VOTE_VALUE_WEIGHTS = [0.1, 0.1, 0.2, 0.25, 0.35];

export interface GenerateOptions {
  bounties: number;
  claimsPerBounty: number;
  members: number;
  /** Default: one hunter per 100 claims, at least 12. */
  hunters?: number;
  /** Where image derivatives are written (`{key}-f.webp`, `{key}-t.webp`); none when unset. */
  mediaDir?: string;
  /** Distinct images the claims cycle through. */
  imagePool?: number;
  /** Bounties are created over this many days before now. */
  spanDays?: number;
  seed?: number;
  now?: Date;
  log?: (msg: string) => void;
}

export interface GenerateResult {
  members: { firstId: number; lastId: number };
  hunters: { firstUserId: number; lastUserId: number; firstHunterId: number; lastHunterId: number };
  bounties: { firstId: number; lastId: number };
  claims: { firstId: number; lastId: number };
  rows: Record<string, number>;
  seconds: number;
  imageKeys: string[];
}

function weighted(rand: () => number, weights: readonly number[]): number {
  let r = rand();
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r <= 0) return i;
  }
  return weights.length - 1;
}

/** Pareto-distributed voter count: most claims get a few votes, a few get very many. */
function voterCount(rand: () => number, cap: number): number {
  const alpha = 1.5;
  const v = Math.floor(1.5 * Math.pow(1 / (1 - rand()), 1 / alpha)) - 1;
  return Math.min(v, cap);
}

async function writeImagePool(
  count: number,
  mediaDir: string | undefined,
  seed: number,
): Promise<{ key: string; bytes: number; width: number; height: number }[]> {
  if (mediaDir) fs.mkdirSync(mediaDir, { recursive: true });
  const out: { key: string; bytes: number; width: number; height: number }[] = [];
  for (let i = 0; i < count; i++) {
    const width = i % 3 === 0 ? 900 : 1200;
    const height = i % 3 === 0 ? 1200 : 900;
    const key = `i-${crypto.randomBytes(10).toString('hex')}-${width}x${height}`;
    let bytes = 0;
    if (mediaDir) {
      const base = sharp(Buffer.from(artSvg(seed + i, width, height)));
      const full = await base.clone().webp({ quality: 80 }).toBuffer();
      const thumb = await base
        .clone()
        .resize(500, 500, { fit: 'cover' })
        .webp({ quality: 75 })
        .toBuffer();
      fs.writeFileSync(path.join(mediaDir, `${key}-f.webp`), full);
      fs.writeFileSync(path.join(mediaDir, `${key}-t.webp`), thumb);
      bytes = full.length;
    }
    out.push({ key, bytes, width, height });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function generateData(
  handle: DatabaseHandle,
  opts: GenerateOptions,
): Promise<GenerateResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const rand = rng(opts.seed ?? 42);
  const now = (opts.now ?? new Date()).getTime();
  const M = Math.max(1, opts.members);
  const K = Math.max(0, opts.claimsPerBounty);
  const H = Math.max(1, opts.hunters ?? Math.max(12, Math.ceil((opts.bounties * K) / 100)));
  const spanMs = (opts.spanDays ?? 45) * 86_400_000;
  const rows: Record<string, number> = {};
  const count = (table: string, n: number) => (rows[table] = (rows[table] ?? 0) + n);

  const q = await rawConnection(handle);
  try {
    if (q.kind === 'postgres') await q.query('set synchronous_commit = off');
    const base = {
      users: await maxId(q, 'users'),
      hunters: await maxId(q, 'hunters'),
      bounties: await maxId(q, 'bounties'),
      rounds: await maxId(q, 'rounds'),
      claims: await maxId(q, 'claims'),
      votes: await maxId(q, 'votes'),
      posts: await maxId(q, 'posts'),
      ledger: await maxId(q, 'silver_ledger'),
    };
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const images = await writeImagePool(opts.imagePool ?? 24, opts.mediaDir, opts.seed ?? 42);
    log(`${images.length} images${opts.mediaDir ? ` with derivatives in ${opts.mediaDir}` : ''}`);

    // Users: M members (role 1, active a month ahead) then H hunters (role 2).
    const firstMember = base.users + 1;
    const firstHunterUser = firstMember + M;
    const firstHunter = base.hunters + 1;
    const tag = crypto.randomBytes(3).toString('hex');
    {
      const ids: number[] = [];
      const emails: string[] = [];
      const roles: number[] = [];
      const actives: (string | null)[] = [];
      const plans: (number | null)[] = [];
      const handles: string[] = [];
      const hashes: string[] = [];
      const created: string[] = [];
      for (let i = 0; i < M + H; i++) {
        const id = firstMember + i;
        const member = i < M;
        ids.push(id);
        emails.push(`bench-${member ? 'm' : 'h'}${id}-${tag}@bench.example`);
        roles.push(member ? 1 : 2);
        actives.push(member ? iso(now + 30 * 86_400_000) : null);
        plans.push(member ? 2 : null);
        handles.push(`${member ? 'm' : 'h'}${id.toString(36)}${tag}`.slice(0, 15));
        hashes.push(passwordHash);
        created.push(iso(now - spanMs - 86_400_000 * (1 + rand() * 30)));
      }
      await bulkInsert(
        q,
        'users',
        [
          ['id', 'int4'],
          ['email', 'text'],
          ['role', 'int4'],
          ['active', 'timestamptz'],
          ['membership', 'int4'],
          ['handle', 'text'],
          ['password_hash', 'text'],
          ['created_at', 'timestamptz'],
          ['updated_at', 'timestamptz'],
        ],
        [ids, emails, roles, actives, plans, handles, hashes, created, created],
      );
      count('users', ids.length);
      const hIds: number[] = [];
      const hUsers: number[] = [];
      const stagenames: string[] = [];
      const bios: string[] = [];
      const pictures: string[] = [];
      const banners: string[] = [];
      for (let j = 0; j < H; j++) {
        hIds.push(firstHunter + j);
        hUsers.push(firstHunterUser + j);
        stagenames.push(`Hunter ${firstHunter + j}`);
        bios.push(`${pick(rand, BIO_BITS)} ${pick(rand, BIO_BITS)}`);
        pictures.push(pick(rand, images).key);
        banners.push(pick(rand, images).key);
      }
      await bulkInsert(
        q,
        'hunters',
        [
          ['id', 'int4'],
          ['user_id', 'int4'],
          ['stagename', 'text'],
          ['bio', 'text'],
          ['picture', 'text'],
          ['banner', 'text'],
        ],
        [hIds, hUsers, stagenames, bios, pictures, banners],
      );
      count('hunters', H);
      await bulkInsert(
        q,
        'media',
        [
          ['key', 'text'],
          ['owner_id', 'int4'],
          ['kind', 'text'],
          ['status', 'text'],
          ['mime', 'text'],
          ['bytes', 'int4'],
          ['width', 'int4'],
          ['height', 'int4'],
        ],
        [
          images.map((m) => m.key),
          images.map(() => firstHunterUser),
          images.map(() => 'image'),
          images.map(() => 'ready'),
          images.map(() => 'image/jpeg'),
          images.map((m) => m.bytes),
          images.map((m) => m.width),
          images.map((m) => m.height),
        ],
      );
      count('media', images.length);
    }
    log(`${M} members, ${H} hunters`);

    // Per-member totals of the votes generated below.
    const memberVotes = new Int32Array(M);
    // Hunter popularity has a long tail too: a few hunters claim a lot.
    const hunterOf = () => firstHunter + Math.floor(H * Math.pow(rand(), 1.6));
    const voterOf = () => Math.floor(M * Math.pow(rand(), 1.8));

    let bountyId = base.bounties;
    let roundId = base.rounds;
    let claimId = base.claims;
    let voteId = base.votes;
    const BATCH = 5000;
    let lastReport = performance.now();
    for (let done = 0; done < opts.bounties; done += BATCH) {
      const n = Math.min(BATCH, opts.bounties - done);
      const B = {
        id: [] as number[],
        user: [] as number[],
        title: [] as string[],
        amount: [] as number[],
        mediaType: [] as number[],
        roundCount: [] as number[],
        status: [] as string[],
        winner: [] as (number | null)[],
        decided: [] as (string | null)[],
        created: [] as string[],
      };
      const R = {
        id: [] as number[],
        bounty: [] as number[],
        number: [] as number[],
        end: [] as string[],
        closed: [] as (string | null)[],
        created: [] as string[],
      };
      const C = {
        id: [] as number[],
        bounty: [] as number[],
        round: [] as number[],
        hunter: [] as number[],
        media: [] as string[],
        votes: [] as number[],
        created: [] as string[],
      };
      const V = {
        id: [] as number[],
        claim: [] as number[],
        user: [] as number[],
        value: [] as number[],
        created: [] as string[],
      };
      for (let i = 0; i < n; i++) {
        bountyId += 1;
        const created = now - rand() * spanMs;
        const seconds = DURATIONS[weighted(rand, DURATION_WEIGHTS)]!;
        const roundsOf: { number: number; start: number; end: number }[] = [
          { number: 1, start: created, end: created + seconds * 1000 },
        ];
        const first = roundsOf[0]!;
        if (first.end < now && rand() < 0.12) {
          const start = first.end + rand() * HOUR * 1000;
          if (start < now) roundsOf.push({ number: 2, start, end: start + seconds * 1000 });
        }
        let winner: number | null = null;
        let bestVotes = -1;
        let bestCreated = Infinity;
        const last = roundsOf[roundsOf.length - 1]!;
        for (const round of roundsOf) {
          roundId += 1;
          R.id.push(roundId);
          R.bounty.push(bountyId);
          R.number.push(round.number);
          R.end.push(iso(round.end));
          R.closed.push(round.end < now ? iso(round.end) : null);
          R.created.push(iso(round.start));
          const share =
            roundsOf.length === 1
              ? K
              : round.number === 1
                ? Math.ceil(K * 0.6)
                : Math.floor(K * 0.4);
          const openUntil = Math.min(round.end, now);
          for (let c = 0; c < share; c++) {
            claimId += 1;
            const claimCreated = round.start + rand() * (openUntil - round.start) * 0.9;
            const voters = voterCount(rand, M);
            const seen = new Set<number>();
            let total = 0;
            for (let v = 0; v < voters; v++) {
              let voter = voterOf();
              for (let tries = 0; seen.has(voter) && tries < 8; tries++) voter = voterOf();
              if (seen.has(voter)) voter = (voter + 1) % M;
              if (seen.has(voter)) continue;
              seen.add(voter);
              const value = weighted(rand, VOTE_VALUE_WEIGHTS) + 1;
              voteId += 1;
              V.id.push(voteId);
              V.claim.push(claimId);
              V.user.push(firstMember + voter);
              V.value.push(value);
              V.created.push(iso(claimCreated + rand() * (openUntil - claimCreated)));
              memberVotes[voter]! += value;
              total += value;
            }
            C.id.push(claimId);
            C.bounty.push(bountyId);
            C.round.push(round.number);
            C.hunter.push(hunterOf());
            C.media.push(images[claimId % images.length]!.key);
            C.votes.push(total);
            C.created.push(iso(claimCreated));
            // Rank 1 wins: most votes, ties to the earlier claim.
            if (
              round === last &&
              (total > bestVotes || (total === bestVotes && claimCreated < bestCreated))
            ) {
              bestVotes = total;
              bestCreated = claimCreated;
              winner = claimId;
            }
          }
        }
        const decided = last.end < now;
        B.id.push(bountyId);
        B.user.push(firstMember + Math.floor(rand() * M));
        B.title.push(bountyTitle(rand));
        B.amount.push(rand() < 0.7 ? 0 : 10 * (1 + Math.floor(rand() * 20)));
        B.mediaType.push(rand() < 0.8 ? 1 : rand() < 0.5 ? 2 : 4);
        B.roundCount.push(roundsOf.length);
        B.status.push(decided ? 'decided' : 'open');
        B.winner.push(decided ? winner : null);
        B.decided.push(decided ? iso(last.end) : null);
        B.created.push(iso(created));
      }
      await q.transaction(async (tx) => {
        await bulkInsert(
          tx,
          'bounties',
          [
            ['id', 'int4'],
            ['user_id', 'int4'],
            ['title', 'text'],
            ['amount', 'int4'],
            ['media_type', 'int4'],
            ['round_count', 'int4'],
            ['status', 'text'],
            ['winner_claim_id', 'int4'],
            ['decided_at', 'timestamptz'],
            ['created_at', 'timestamptz'],
          ],
          [
            B.id,
            B.user,
            B.title,
            B.amount,
            B.mediaType,
            B.roundCount,
            B.status,
            B.winner,
            B.decided,
            B.created,
          ],
        );
        await bulkInsert(
          tx,
          'rounds',
          [
            ['id', 'int4'],
            ['bounty_id', 'int4'],
            ['number', 'int4'],
            ['end_date', 'timestamptz'],
            ['closed_at', 'timestamptz'],
            ['created_at', 'timestamptz'],
          ],
          [R.id, R.bounty, R.number, R.end, R.closed, R.created],
        );
        await bulkInsert(
          tx,
          'claims',
          [
            ['id', 'int4'],
            ['bounty_id', 'int4'],
            ['round_number', 'int4'],
            ['hunter_id', 'int4'],
            ['media', 'text'],
            ['votes', 'int4'],
            ['created_at', 'timestamptz'],
          ],
          [C.id, C.bounty, C.round, C.hunter, C.media, C.votes, C.created],
        );
        await bulkInsert(
          tx,
          'votes',
          [
            ['id', 'int4'],
            ['claim_id', 'int4'],
            ['user_id', 'int4'],
            ['value', 'int4'],
            ['created_at', 'timestamptz'],
          ],
          [V.id, V.claim, V.user, V.value, V.created],
        );
      });
      count('bounties', B.id.length);
      count('rounds', R.id.length);
      count('claims', C.id.length);
      count('votes', V.id.length);
      if (performance.now() - lastReport > 5000 || done + n >= opts.bounties) {
        lastReport = performance.now();
        const s = ((performance.now() - started) / 1000).toFixed(1);
        log(
          `${done + n}/${opts.bounties} bounties, ${rows.claims} claims, ${rows.votes} votes (${s} s)`,
        );
      }
    }

    // Members: what they voted, a balance left to spend, and the ledger behind both.
    {
      const ids: number[] = [];
      const votes: number[] = [];
      const silver: number[] = [];
      const L = {
        id: [] as number[],
        user: [] as number[],
        delta: [] as number[],
        after: [] as number[],
        reason: [] as string[],
        created: [] as string[],
      };
      let ledgerId = base.ledger;
      const balance = 1_000_000;
      for (let m = 0; m < M; m++) {
        const id = firstMember + m;
        const spent = memberVotes[m]!;
        ids.push(id);
        votes.push(spent);
        silver.push(balance);
        ledgerId += 1;
        L.id.push(ledgerId);
        L.user.push(id);
        L.delta.push(balance + spent);
        L.after.push(balance + spent);
        L.reason.push('membership');
        L.created.push(iso(now - spanMs - 86_400_000));
        if (spent > 0) {
          ledgerId += 1;
          L.id.push(ledgerId);
          L.user.push(id);
          L.delta.push(-spent);
          L.after.push(balance);
          L.reason.push('vote');
          L.created.push(iso(now));
        }
      }
      for (let start = 0; start < ids.length; start += 20_000) {
        await q.query(
          `update users u set votes = v.votes, silver = v.silver
             from unnest($1::int4[], $2::int4[], $3::int4[]) as v(id, votes, silver)
            where u.id = v.id`,
          [
            ids.slice(start, start + 20_000),
            votes.slice(start, start + 20_000),
            silver.slice(start, start + 20_000),
          ],
        );
      }
      await bulkInsert(
        q,
        'silver_ledger',
        [
          ['id', 'int4'],
          ['user_id', 'int4'],
          ['delta', 'int4'],
          ['balance_after', 'int4'],
          ['reason', 'text'],
          ['created_at', 'timestamptz'],
        ],
        [L.id, L.user, L.delta, L.after, L.reason, L.created],
      );
      count('silver_ledger', L.id.length);
    }

    // A few posts per hunter.
    {
      const P = {
        id: [] as number[],
        hunter: [] as number[],
        file: [] as string[],
        text: [] as string[],
        created: [] as string[],
      };
      let postId = base.posts;
      for (let j = 0; j < H; j++) {
        for (let p = 0; p < 3; p++) {
          postId += 1;
          P.id.push(postId);
          P.hunter.push(firstHunter + j);
          P.file.push(pick(rand, images).key);
          P.text.push(pick(rand, POST_TEXTS));
          P.created.push(iso(now - rand() * spanMs));
        }
      }
      await bulkInsert(
        q,
        'posts',
        [
          ['id', 'int4'],
          ['hunter_id', 'int4'],
          ['file', 'text'],
          ['text', 'text'],
          ['created_at', 'timestamptz'],
        ],
        [P.id, P.hunter, P.file, P.text, P.created],
      );
      count('posts', P.id.length);
    }

    // Hunters: the silver spent on their new claims becomes money in the payouts ledger, as
    // the settle job records it: each claim's votes valued at the voters' plans, the creator
    // share pending for the hunter, the rest revenue, in one balanced ledger transaction.
    {
      const rates = PLANS.map((p) => (p.priceCents * MICROS_PER_CENT) / p.silver);
      // The creator share the bench's server runs with (CREATOR_SHARE's default).
      const bp = Math.round(loadConfig({}).CREATOR_SHARE * 10_000);
      await q.query(`drop table if exists bench_earned`);
      await q.query(
        `create temp table bench_earned as
         select h.user_id, c.id as claim_id,
           sum(v.value * (($2::int8[])[coalesce(m.membership, 0) + 1]))::int8 as value
           from votes v join claims c on c.id = v.claim_id join hunters h on h.id = c.hunter_id
           join users m on m.id = v.user_id
          where c.id > $1
          group by h.user_id, c.id`,
        [base.claims, rates],
      );
      const [txn] = await q.query<{ id: number }>(
        `insert into ledger_transactions (kind, ref_type, created_at)
         values ('vote_earnings', 'bench', $1::timestamptz) returning id`,
        [iso(now)],
      );
      const [e] = await q.query<{ n: number }>(
        `with ins as (
           insert into hunter_earnings (user_id, source, claim_id, micros, earned_at)
           select user_id, 'votes', claim_id, value * $1 / 10000, $2::timestamptz
             from bench_earned where value * $1 / 10000 > 0
           returning 1
         ) select count(*)::int as n from ins`,
        [bp, iso(now)],
      );
      await q.query(
        `create temp table bench_lines as
         select 'hunter_pending'::text as code, user_id, -sum(value * $1 / 10000)::int8 as amount
           from bench_earned group by user_id
         union all select 'silver_liability', 0, sum(value)::int8 from bench_earned
         union all select 'platform_revenue', 0, -sum(value - value * $1 / 10000)::int8 from bench_earned`,
        [bp],
      );
      await q.query(`delete from bench_lines where amount is null or amount = 0`);
      await q.query(
        `insert into ledger_accounts (code, user_id, balance)
         select code, user_id, amount from bench_lines order by code, user_id
         on conflict (code, user_id) do update set balance = ledger_accounts.balance + excluded.balance`,
      );
      await q.query(
        `insert into ledger_entries (txn_id, account_id, amount)
         select $1, a.id, l.amount from bench_lines l join ledger_accounts a using (code, user_id)`,
        [txn!.id],
      );
      await q.query(`drop table bench_lines`);
      await q.query(`drop table bench_earned`);
      count('hunter_earnings', e!.n);
    }

    for (const t of [
      'users',
      'hunters',
      'bounties',
      'rounds',
      'claims',
      'votes',
      'posts',
      'silver_ledger',
    ])
      await syncSequence(q, t);
    await q.query('analyze');

    return {
      members: { firstId: firstMember, lastId: firstMember + M - 1 },
      hunters: {
        firstUserId: firstHunterUser,
        lastUserId: firstHunterUser + H - 1,
        firstHunterId: firstHunter,
        lastHunterId: firstHunter + H - 1,
      },
      bounties: { firstId: base.bounties + 1, lastId: bountyId },
      claims: { firstId: base.claims + 1, lastId: claimId },
      rows,
      seconds: (performance.now() - started) / 1000,
      imageKeys: images.map((m) => m.key),
    };
  } finally {
    await q.release();
  }
}

export type { RawDb };
