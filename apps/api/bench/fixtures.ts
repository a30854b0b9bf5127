/** What a benchmark run needs from the database: voters with sessions, ids to rotate over. */
import crypto from 'node:crypto';
import type { Request } from 'autocannon';
import { PLANS } from '@bountyhunt/shared/billing';
import { loadConfig } from '../src/env';
import { hashToken, randomToken } from '../src/lib/tokens';
import { creatorPart, silverValueMicros } from '../src/modules/payouts/ledger.service';
import { bulkInsert, maxId, syncSequence, type RawDb } from './raw-db';
import { rng } from './words';

export interface Voter {
  userId: number;
  token: string;
}

/**
 * POST /vote, as `npm run bench`, `bench:profile` and `bench:tree` send it: the i-th request (i
 * from `nextIndex`) is voter i mod V's vote on claim (i mod V + i div V) mod C, of
 * `silverOf(i)` silver (1 unless given). Concurrent votes come from different members on
 * different claims, as many members voting at once do, and no (voter, claim) pair repeats while
 * i < V × C.
 */
export function voteRequest(
  voters: Voter[],
  active: number[],
  nextIndex: () => number,
  silverOf: (i: number) => number = () => 1,
): Request {
  return {
    method: 'POST',
    path: '/vote',
    setupRequest: (r) => {
      const i = nextIndex();
      const v = i % voters.length;
      const claimId = active[(v + Math.floor(i / voters.length)) % active.length]!;
      return {
        ...r,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${voters[v]!.token}`,
        },
        body: JSON.stringify({ claimId, votes: silverOf(i) }),
      };
    },
  };
}

/**
 * Members with an active membership, plenty of silver, no vote yet and a live session each,
 * so every (voter, claim) pair of a run is a fresh, valid vote.
 */
export async function addVoters(q: RawDb, count: number, now = new Date()): Promise<Voter[]> {
  const first = (await maxId(q, 'users')) + 1;
  const tag = crypto.randomBytes(3).toString('hex');
  const ids = Array.from({ length: count }, (_, i) => first + i);
  const tokens = ids.map(() => randomToken());
  const active = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const expires = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const at = now.toISOString();
  const silver = 1_000_000;
  await bulkInsert(
    q,
    'users',
    [
      ['id', 'int4'],
      ['email', 'text'],
      ['password_hash', 'text'],
      ['role', 'int4'],
      ['active', 'timestamptz'],
      ['membership', 'int4'],
      ['handle', 'text'],
      ['silver', 'int4'],
    ],
    [
      ids,
      ids.map((id) => `bench-voter${id}-${tag}@bench.example`),
      // Never used to sign in: voters come with sessions.
      ids.map(() => '!'),
      ids.map(() => 1),
      ids.map(() => active),
      ids.map(() => 2),
      ids.map((id) => `v${id.toString(36)}${tag}`.slice(0, 15)),
      ids.map(() => silver),
    ],
  );
  const firstLedger = (await maxId(q, 'silver_ledger')) + 1;
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
    [
      ids.map((_, i) => firstLedger + i),
      ids,
      ids.map(() => silver),
      ids.map(() => silver),
      ids.map(() => 'membership'),
      ids.map(() => at),
    ],
  );
  const firstSession = (await maxId(q, 'sessions')) + 1;
  await bulkInsert(
    q,
    'sessions',
    [
      ['id', 'int4'],
      ['user_id', 'int4'],
      ['token_hash', 'text'],
      ['created_at', 'timestamptz'],
      ['last_used_at', 'timestamptz'],
      ['expires_at', 'timestamptz'],
    ],
    [
      ids.map((_, i) => firstSession + i),
      ids,
      tokens.map(hashToken),
      ids.map(() => at),
      ids.map(() => at),
      ids.map(() => expires),
    ],
  );
  for (const t of ['users', 'silver_ledger', 'sessions']) await syncSequence(q, t);
  return ids.map((userId, i) => ({ userId, token: tokens[i]! }));
}

/** Random sample of ids spread over the whole table (so caches see realistic spread). */
export async function sampleIds(
  q: RawDb,
  table: 'bounties' | 'claims',
  n: number,
): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `select id from ${table} where id in (
       select (1 + floor(random() * (select max(id) from ${table})))::int
         from generate_series(1, ${Math.ceil(n * 1.5)}))
     limit ${n}`,
  );
  return rows.map((r) => r.id);
}

/** Claims in the current round of their bounty while that round stays active for a while. */
export async function activeClaimIds(q: RawDb, n: number): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `select c.id from claims c
       join bounties b on b.id = c.bounty_id and b.round_count = c.round_number
       join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
      where r.end_date > now() + interval '30 minutes' and r.closed_at is null
      order by c.id desc limit ${n}`,
  );
  return rows.map((r) => r.id);
}

/** A word that matches a fair share of titles (a typical search). */
export const SEARCH_TERM = 'sunset';

function shuffle<T>(list: T[], seed: number): T[] {
  const rand = rng(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/**
 * Every one-word search term that finds something: each prefix (letters and digits) of each
 * word of the visible titles, from 'a' (tens of thousands of matches at 100,000 bounties) to
 * whole words, in a shuffled order. Read from the titles' tsvectors, so it does not depend on
 * how the product searches.
 */
export async function oneWordTerms(q: RawDb): Promise<string[]> {
  const rows = await q.query<{ word: string }>(
    `select word from ts_stat('select search from bounties where hidden_at is null')`,
  );
  const out = new Set<string>();
  for (const { word } of rows)
    if (/^[a-z0-9]+$/.test(word)) for (let n = 1; n <= word.length; n++) out.add(word.slice(0, n));
  return shuffle([...out].sort(), 11);
}

/**
 * Two-word terms that each find at least the title they come from: prefixes (3 letters or
 * more) of two words of a visible title, distinct, up to `n`, shuffled.
 */
export async function twoWordTerms(q: RawDb, n: number): Promise<string[]> {
  const rows = await q.query<{ title: string }>(
    `select title from bounties where hidden_at is null order by id desc limit ${Math.ceil(n / 2)}`,
  );
  const rand = rng(13);
  const out = new Set<string>();
  for (let round = 0; round < 40 && out.size < n; round++)
    for (const { title } of rows) {
      const words = (title.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3);
      if (words.length < 2) continue;
      const i = Math.floor(rand() * words.length);
      const j = (i + 1 + Math.floor(rand() * (words.length - 1))) % words.length;
      const cut = (w: string) => w.slice(0, 3 + Math.floor(rand() * (w.length - 2)));
      const a = cut(words[i]!);
      const b = cut(words[j]!);
      if (a.startsWith(b) || b.startsWith(a)) continue;
      // One order per pair: 'sun gold' would be the same search as 'gold sun'.
      out.add(a < b ? `${a} ${b}` : `${b} ${a}`);
      if (out.size >= n) break;
    }
  return shuffle([...out].sort(), 17);
}

/**
 * The terms of `terms` (two-word, as twoWordTerms) whose first page is full: more than `page`
 * visible bounties match them. At 10,000 claims a few hundred of the bench's terms, at 1,000,000
 * nearly all; up to `n`, in the order given. Counted on the titles' tsvectors (their GIN index,
 * at most page + 1 matches a term), so it does not depend on how the product searches.
 */
export async function fullPageTerms(
  q: RawDb,
  terms: string[],
  page: number,
  n: number,
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < terms.length && out.length < n; i += 500) {
    const batch = terms.slice(i, i + 500);
    const rows = await q.query<{ i: string }>(
      `select t.i from unnest($1::text[]) with ordinality as t(query, i)
       where (select count(*) from (select 1 from bounties b
               where b.hidden_at is null and b.search @@ to_tsquery('simple', t.query)
               limit ${page + 1}) m) > ${page}
       order by t.i`,
      [
        batch.map((term) =>
          term
            .split(' ')
            .map((w) => `${w}:*`)
            .join(' & '),
        ),
      ],
    );
    for (const r of rows) if (out.length < n) out.push(batch[Number(r.i) - 1]!);
  }
  return out;
}

export interface VoteCheck {
  votes: number;
  claimMismatches: number;
  memberMismatches: number;
  negativeBalances: number;
  ledgerMismatches: number;
  /** Hunters whose earnings (settled and pending, in money) differ from the votes on their claims. */
  earningsMismatches: number;
  /** Ledger accounts whose balance differs from the sum of their entries. */
  ledgerAccountMismatches: number;
  /** Ledger transactions whose entries do not sum to zero. */
  ledgerUnbalancedTransactions: number;
  /** The sum of every ledger balance, micro-dollars (0 when the books balance). */
  ledgerBalanceSum: string;
  ledgerEntries: number;
  exact: boolean;
}

/** Micro-dollars a hunter earns per silver spent by a member of each plan (index order). */
export function hunterMicrosPerSilver(share = loadConfig({}).CREATOR_SHARE): string[] {
  return PLANS.map((p) => String(creatorPart(silverValueMicros(p.index, 1), share)));
}

/** Totals equal a fresh recount, no balance is negative, every balance matches its ledger. */
export async function checkVotes(q: RawDb): Promise<VoteCheck> {
  // Grouped joins rather than correlated subqueries: one pass over millions of votes.
  const [r] = await q.query<Omit<VoteCheck, 'exact'>>(
    `select
       (select count(*)::int from votes) as votes,
       (select count(*)::int from claims c
          left join (select claim_id, sum(value) as s from votes group by claim_id) v
            on v.claim_id = c.id
         where c.votes <> coalesce(v.s, 0)) as "claimMismatches",
       (select count(*)::int from users u
          left join (select user_id, sum(value) as s from votes group by user_id) v
            on v.user_id = u.id
         where u.role = 1 and u.votes <> coalesce(v.s, 0)) as "memberMismatches",
       (select count(*)::int from users where silver < 0) as "negativeBalances",
       (select count(*)::int from users u
          join (select user_id, sum(delta) as s from silver_ledger group by user_id) l
            on l.user_id = u.id
         where u.silver <> l.s) as "ledgerMismatches",
       (select count(*)::int from (
          select h.user_id, sum(v.value * ($1::int8[])[coalesce(m.membership, 0) + 1]) as s
            from votes v join claims c on c.id = v.claim_id join hunters h on h.id = c.hunter_id
            join users m on m.id = v.user_id
           group by h.user_id) e
          left join (select user_id, sum(micros) as s from hunter_earnings
                      where source = 'votes' group by user_id) l on l.user_id = e.user_id
          left join (select user_id, sum(amount * ($1::int8[])[coalesce(plan_index, 0) + 1]) as s
                       from vote_earnings_pending group by user_id) p on p.user_id = e.user_id
         where e.s <> coalesce(l.s, 0) + coalesce(p.s, 0)) as "earningsMismatches",
       (select count(*)::int from ledger_accounts a
          left join (select account_id, sum(amount) as s from ledger_entries group by account_id) e
            on e.account_id = a.id
         where a.balance <> coalesce(e.s, 0)) as "ledgerAccountMismatches",
       (select count(*)::int from (select txn_id from ledger_entries group by txn_id
          having sum(amount) <> 0) t) as "ledgerUnbalancedTransactions",
       (select coalesce(sum(balance), 0)::text from ledger_accounts) as "ledgerBalanceSum",
       (select count(*)::int from ledger_entries) as "ledgerEntries"`,
    [hunterMicrosPerSilver()],
  );
  return {
    ...r!,
    exact:
      r!.claimMismatches === 0 &&
      r!.memberMismatches === 0 &&
      r!.negativeBalances === 0 &&
      r!.ledgerMismatches === 0 &&
      r!.earningsMismatches === 0 &&
      r!.ledgerAccountMismatches === 0 &&
      r!.ledgerUnbalancedTransactions === 0 &&
      r!.ledgerBalanceSum === '0',
  };
}

/** The bench's 5 rounds × 50 claims bounties: those already in the database, else `count` new. */
export async function roundBounties(q: RawDb, count: number): Promise<number[]> {
  const have = await q.query<{ id: number }>(
    `select id from bounties where title like 'Five rounds of sunset light %' order by id`,
  );
  if (have.length > 0) return have.map((r) => r.id);
  return addRoundBounties(q, count);
}

/**
 * `count` bounties of the heavy shape: `rounds` rounds (all ended but the last, which runs
 * for a week) of `perRound` claims each, by the generated hunters and on their media.
 * Returns the bounty ids. Needs data from generate.ts (users, hunters, claims) already there.
 * The claims start with no votes (vote totals must equal a recount of the votes table).
 */
export async function addRoundBounties(
  q: RawDb,
  count: number,
  rounds = 5,
  perRound = 50,
): Promise<number[]> {
  await syncSequence(q, 'bounties');
  await syncSequence(q, 'rounds');
  await syncSequence(q, 'claims');
  return q.transaction(async (tx) => {
    const made = await tx.query<{ id: number }>(
      `insert into bounties (user_id, title, amount, media_type, round_count, status, created_at)
       select (select min(id) from users), 'Five rounds of sunset light ' || g, 500, 1, $2, 'open',
              now() - make_interval(days => $2 * 2)
         from generate_series(1, $1::int) g
       returning id`,
      [count, rounds],
    );
    const ids = made.map((r) => r.id);
    await tx.query(
      `insert into rounds (bounty_id, number, end_date, closed_at, created_at)
       select b, n, now() - make_interval(days => ($2 - n) * 2) + case when n = $2 then interval '7 days' else interval '0' end,
              case when n < $2 then now() - make_interval(days => ($2 - n) * 2) end,
              now() - make_interval(days => ($2 - n + 1) * 2)
         from unnest($1::int4[]) b, generate_series(1, $2::int) n`,
      [ids, rounds],
    );
    await tx.query(
      `with h as (select array_agg(id order by id) as ids from hunters),
            m as (select array_agg(media order by id) as keys from (select id, media from claims order by id limit 50) x)
       insert into claims (bounty_id, round_number, hunter_id, media, votes, created_at)
       select b, n, h.ids[1 + (k * 7 + n * 13 + b) % cardinality(h.ids)],
              m.keys[1 + (k + n) % cardinality(m.keys)], 0,
              now() - make_interval(days => ($2 - n + 1) * 2) + make_interval(mins => k)
         from unnest($1::int4[]) b, generate_series(1, $2::int) n, generate_series(1, $3::int) k, h, m`,
      [ids, rounds, perRound],
    );
    return ids;
  });
}
