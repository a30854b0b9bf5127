/**
 * The floor: a bare Fastify server answering the benchmarked endpoints with the same SQL as
 * the product (modules/bounties and modules/users repositories; keep them in step) straight through
 * node-postgres (PGlite when DATABASE_URL is pglite://), and the same JSON. No ORM, no
 * schema validation, no plugins: what the machine allows for this work.
 *
 * Env: DATABASE_URL, FLOOR_PORT. Imports nothing of the product on purpose.
 */
import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.DATABASE_URL ?? '';
const port = Number(process.env.FLOOR_PORT ?? 5852);

interface Queryable {
  /** With a name, a named prepared statement on PostgreSQL (as the product's hot paths). */
  query<T>(text: string, params?: unknown[], name?: string): Promise<T[]>;
}
interface Database extends Queryable {
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function open(): Promise<Database> {
  if (url.startsWith('postgres')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      async query<T>(text: string, params?: unknown[], name?: string) {
        return (await pool.query(name ? { name, text, values: params } : { text, values: params }))
          .rows as T[];
      },
      async transaction<T>(fn: (q: Queryable) => Promise<T>) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const out = await fn({
            async query<R>(text: string, params?: unknown[]) {
              return (await client.query(text, params)).rows as R[];
            },
          });
          await client.query('commit');
          return out;
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const lite = await PGlite.create({ dataDir: url.replace(/^pglite:\/\//, '') });
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await lite.query<T>(text, params)).rows;
    },
    transaction<T>(fn: (q: Queryable) => Promise<T>) {
      return lite.transaction((tx) =>
        fn({
          async query<R>(text: string, params?: unknown[]) {
            return (await tx.query<R>(text, params)).rows;
          },
        }),
      );
    },
    close: () => lite.close(),
  };
}

const db = await open();

const iso = (v: Date | string | null) =>
  v == null ? null : (v instanceof Date ? v : new Date(v)).toISOString();

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

// ---- the product's SQL ---------------------------------------------------------------

const CLAIM_COLUMNS = `c.id, c.bounty_id, c.round_number, c.media, c.votes, c.created_at,
  b.title, r.end_date, h.id as hunter_id, u.handle, h.stagename, h.picture`;
const CLAIM_JOINS = `from claims c
  join bounties b on b.id = c.bounty_id
  join rounds r on r.bounty_id = c.bounty_id and r.number = c.round_number
  join hunters h on h.id = c.hunter_id
  join users u on u.id = h.user_id`;
const SEARCH_BASE = `b.id, b.user_id, b.title, b.amount, b.media_type, b.round_count, b.status,
  b.winner_claim_id, b.created_at,
  to_char(b.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key`;
const SEARCH_ALL = `select ${SEARCH_BASE}, null as rank from bounties b
  order by b.created_at desc nulls last, b.id desc nulls last limit $1`;
const SEARCH_TERM = `select ${SEARCH_BASE}, ts_rank(b.search, to_tsquery('simple', $1)) as rank
  from bounties b where b.search @@ to_tsquery('simple', $1)
  order by rank desc, b.created_at desc nulls last, b.id desc nulls last limit $2`;
// The walks answer hits only (their tables hold only bounties not hidden, migration 0009);
// the page's bounties are then read by id (search.repository.ts bountyRows).
const HIT = `t.bounty_id as id, t.rank as rank,
  to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key`;
const HIT_ORDER = `order by t.rank desc nulls last, t.created_at desc nulls last, t.bounty_id desc nulls last`;
// One ASCII word: the walk of search.bounty_prefixes in feed order.
const SEARCH_PREFIX = `select ${HIT} from search.bounty_prefixes t where t.prefix = $1
  ${HIT_ORDER} limit $2`;
// Two ASCII words of 3 letters or more: the walk of search.bounty_prefix_pairs.
const SEARCH_PAIR = `select ${HIT} from search.bounty_prefix_pairs t
  where t.prefix_a = $1 and t.prefix_b = $2 ${HIT_ORDER} limit $3`;
const BOUNTY_ROWS = `select ${SEARCH_BASE}, null as rank from bounties b
  where b.id = any($1::int4[]) and b.hidden_at is null`;
const ROUNDS_WITH_CLAIMS = `select rr.bounty_id as r_bounty_id, rr.number as r_number,
    rr.end_date as r_end_date, x.*
  from rounds rr
  left join lateral (
    select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
    where c.bounty_id = rr.bounty_id and c.round_number = rr.number
    order by c.votes desc nulls last, c.created_at asc, c.id asc
    limit $2
  ) x on true
  where rr.bounty_id = any($1::int4[])
  order by rr.bounty_id, rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`;

const BOUNTY_PAGE = `select b.id as b_id, b.user_id as b_user_id, b.title as b_title,
    b.amount as b_amount, b.media_type as b_media_type, b.round_count as b_round_count,
    b.status as b_status, b.winner_claim_id as b_winner_claim_id, b.created_at as b_created_at,
    rr.bounty_id as r_bounty_id, rr.number as r_number, rr.end_date as r_end_date, x.*
  from bounties b
  left join rounds rr on rr.bounty_id = b.id
  left join lateral (
    select ${CLAIM_COLUMNS} ${CLAIM_JOINS}
    where c.bounty_id = rr.bounty_id and c.round_number = rr.number
    order by c.votes desc nulls last, c.created_at asc, c.id asc
    limit $2
  ) x on true
  where b.id = $1
  order by rr.number, x.votes desc nulls last, x.created_at asc, x.id asc`;

type Row = Record<string, unknown>;

function presentClaim(v: Row) {
  return {
    claimId: v.id,
    bountyId: v.bounty_id,
    bounty: { bountyId: v.bounty_id, title: v.title },
    roundId: v.round_number,
    round: { roundId: v.round_number, endDate: iso(v.end_date as Date | null) },
    hunter: {
      hunterId: v.hunter_id,
      handle: v.handle,
      stagename: v.stagename,
      picture: v.picture,
    },
    media: v.media,
    votes: v.votes,
    created: iso(v.created_at as Date),
  };
}

interface RoundOut {
  roundId: number;
  endDate: string | null;
  claims: ReturnType<typeof presentClaim>[];
}

async function roundsOf(ids: number[], perRound: number): Promise<Map<number, RoundOut[]>> {
  if (ids.length === 0) return new Map();
  return groupRounds(await db.query<Row>(ROUNDS_WITH_CLAIMS, [ids, perRound], 'rounds'));
}

function groupRounds(rows: Row[]): Map<number, RoundOut[]> {
  const out = new Map<number, RoundOut[]>();
  for (const row of rows) {
    const bountyId = row.r_bounty_id as number;
    let list = out.get(bountyId);
    if (!list) out.set(bountyId, (list = []));
    let round = list[list.length - 1];
    if (!round || round.roundId !== row.r_number) {
      round = {
        roundId: row.r_number as number,
        endDate: iso(row.r_end_date as Date | null),
        claims: [],
      };
      list.push(round);
    }
    if (row.id != null) round.claims.push(presentClaim(row));
  }
  return out;
}

function presentBounty(b: Row, rounds: RoundOut[]) {
  return {
    bountyId: b.id,
    id: b.id,
    title: b.title,
    amount: b.amount,
    mediaType: b.media_type,
    userId: b.user_id,
    created: iso(b.created_at as Date),
    roundCount: b.round_count,
    status: b.status === 'decided' ? 'decided' : 'open',
    winnerClaimId: b.winner_claim_id,
    rounds,
  };
}

function toPrefixQuery(term: string): string | null {
  const words = term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 8);
  return unique.length ? unique.map((w) => `${w}:*`).join(' & ') : null;
}

async function actorOf(authorization: string | undefined) {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) throw new HttpError(401, 'Sign in first.', 'UNAUTHORIZED');
  const hash = crypto.createHash('sha256').update(m[1]!).digest('hex');
  const [session] = await db.query<{ session_id: number; user_id: number; role: number }>(
    `select s.id as session_id, s.user_id, u.role from sessions s
      join users u on u.id = s.user_id
      where s.token_hash = $1 and s.expires_at > $2 limit 1`,
    [hash, new Date()],
    'session',
  );
  if (!session) throw new HttpError(401, 'Sign in first.', 'UNAUTHORIZED');
  return session;
}

// ---- routes ---------------------------------------------------------------------------

const app = Fastify({ logger: false });
app.setErrorHandler((err, _req, reply) => {
  if (err instanceof HttpError)
    return reply.code(err.status).send({ message: err.message, code: err.code });
  return reply.code(500).send({ message: String(err), code: 'INTERNAL' });
});

app.post('/bounty/search', async (req, reply) => {
  await signedIn(req);
  const body = (req.body ?? {}) as { term?: string; limit?: number };
  const limit = body.limit ?? 10;
  const tsquery = toPrefixQuery(body.term ?? '');
  const prefix = tsquery ? /^([a-z0-9]+):\*$/.exec(tsquery)?.[1] : undefined;
  // search.repository.ts prefixPair: byte order, 3 letters or more, neither a prefix of the other.
  const two = tsquery ? /^([a-z0-9]+):\* & ([a-z0-9]+):\*$/.exec(tsquery) : null;
  const pair = two ? [two[1]!, two[2]!].sort() : undefined;
  const paired =
    pair && pair[0]!.length >= 3 && pair[1]!.length >= 3 && !pair[1]!.startsWith(pair[0]!);
  const rows = prefix
    ? await db.query<Row>(SEARCH_PREFIX, [prefix, limit + 1], 'search_prefix')
    : paired
      ? await db.query<Row>(SEARCH_PAIR, [pair![0], pair![1], limit + 1], 'search_pair')
      : tsquery
        ? await db.query<Row>(SEARCH_TERM, [tsquery, limit + 1], 'search_term')
        : await db.query<Row>(SEARCH_ALL, [limit + 1], 'search_all');
  let page = rows.slice(0, limit);
  if (prefix || paired) {
    // Hits: the bounties' columns by id, in the hits' order.
    const byId = new Map(
      (await db.query<Row>(BOUNTY_ROWS, [page.map((h) => h.id)], 'bounty_rows')).map((r) => [
        r.id,
        r,
      ]),
    );
    page = page.flatMap((h) => {
      const r = byId.get(h.id);
      return r ? [{ ...r, rank: h.rank, created_key: h.created_key }] : [];
    });
  }
  const rounds = await roundsOf(
    page.map((r) => r.id as number),
    12,
  );
  const last = page[page.length - 1];
  if (rows.length > limit && last)
    reply.header(
      'x-next-cursor',
      Buffer.from(
        JSON.stringify({
          c: last.created_key,
          i: last.id,
          ...(tsquery ? { r: Number(last.rank) } : {}),
        }),
      ).toString('base64url'),
    );
  return page.map((r) => presentBounty(r, rounds.get(r.id as number) ?? []));
});

// Reads sent with a member's token look the session up first, as the product does.
const signedIn = (req: { headers: { authorization?: string } }) =>
  req.headers.authorization ? actorOf(req.headers.authorization) : null;

app.get('/bounty/:id', async (req) => {
  await signedIn(req);
  const id = Number((req.params as { id: string }).id);
  // One statement: the bounty's columns on each of its rounds' rows (claims.repository bountyPage).
  const rows = await db.query<Row>(BOUNTY_PAGE, [id, 500], 'bounty_page');
  const b = rows[0];
  if (!b) throw new HttpError(404, 'Bounty not found.', 'BOUNTY_NOT_FOUND');
  const rounds = groupRounds(rows.filter((r) => r.r_number != null)).get(id) ?? [];
  return presentBounty(
    {
      id: b.b_id,
      user_id: b.b_user_id,
      title: b.b_title,
      amount: b.b_amount,
      media_type: b.b_media_type,
      round_count: b.b_round_count,
      status: b.b_status,
      winner_claim_id: b.b_winner_claim_id,
      created_at: b.b_created_at,
    },
    rounds,
  );
});

app.get('/claim/:id', async (req) => {
  await signedIn(req);
  const id = Number((req.params as { id: string }).id);
  const [row] = await db.query<Row>(
    `select ${CLAIM_COLUMNS} ${CLAIM_JOINS} where c.id = $1`,
    [id],
    'claim',
  );
  if (!row) throw new HttpError(404, 'Claim not found.', 'CLAIM_NOT_FOUND');
  return presentClaim(row);
});

app.get('/user', async (req) => {
  const actor = await actorOf(req.headers.authorization);
  const [u] = await db.query<Row>(
    `select u.*, h.id as h_id, h.user_id as h_user_id, h.stagename as h_stagename, h.bio as h_bio,
       h.banner as h_banner, h.picture as h_picture
     from users u left join hunters h on h.user_id = u.id where u.id = $1 limit 1`,
    [actor.user_id],
    'user',
  );
  if (!u) throw new HttpError(401, 'Sign in first.', 'UNAUTHORIZED');
  const h =
    ((u.role as number) & 2) !== 0 && u.h_id != null
      ? {
          id: u.h_id,
          user_id: u.h_user_id,
          stagename: u.h_stagename,
          bio: u.h_bio,
          banner: u.h_banner,
          picture: u.h_picture,
        }
      : null;
  const hasAddress = u.street || u.city || u.state || u.zip;
  const hasBank = u.bank_name || u.bank_account_type || u.bank_routing_number;
  return {
    user: {
      userId: u.id,
      email: u.email,
      role: u.role,
      active: iso(u.active as Date | null),
      handle: u.handle,
      firstName: u.first_name,
      lastName: u.last_name,
      taxAddress: hasAddress
        ? { street: u.street ?? '', city: u.city ?? '', state: u.state ?? '', zip: u.zip ?? '' }
        : null,
      ssnLastFour: u.ssn_last_four,
      bankAccountLastFour: u.bank_account_last_four,
      bankInfo: hasBank
        ? {
            name: u.bank_name,
            accountType: u.bank_account_type,
            routingNumber: u.bank_routing_number,
          }
        : null,
      creditCardLastFour: u.card_last_four,
      silver: u.silver,
      votes: u.votes,
      membership: u.membership,
      identityStatus: u.identity_status,
      identityReason: u.identity_status === 'rejected' ? (u.identity_reason ?? null) : null,
    },
    hunter: h
      ? {
          hunterId: h.id,
          userId: h.user_id,
          handle: u.handle,
          stagename: h.stagename,
          bio: h.bio,
          banner: h.banner,
          picture: h.picture,
        }
      : null,
  };
});

// The product's vote statement (modules/bounties repository castVote), one round trip.
const CAST_VOTE = `with target as (
    select c.id, c.bounty_id, c.round_number, h.user_id as hunter_user
    from claims c join hunters h on h.id = c.hunter_id
    where c.id = $1::int4
  ), open_round as (
    select r.id from rounds r join target t on r.bounty_id = t.bounty_id and r.number = t.round_number
    where r.closed_at is null and r.end_date >= $4::timestamptz
    for key share of r
  ), voter as (
    update users u set silver = u.silver - $3::int4, votes = u.votes + $3::int4
    from target t, open_round o
    where u.id = $2::int4 and u.silver >= $3::int4 and (u.role & 1) <> 0
      and u.active > $4::timestamptz and t.hunter_user <> u.id
    returning u.silver, t.hunter_user, u.membership
  ), vote as (
    insert into votes (claim_id, user_id, value, created_at)
    select $1::int4, $2::int4, $3::int4, $4::timestamptz from voter
    returning id
  ), ledger as (
    insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
    select $2::int4, -$3::int4, v.silver, 'vote', $1::int4, $4::timestamptz from voter v
  ), earnings as (
    insert into vote_earnings_pending (user_id, claim_id, amount, plan_index, created_at)
    select v.hunter_user, $1::int4, $3::int4, v.membership, $4::timestamptz from voter v
  ), claim as (
    update claims set votes = votes + $3::int4
    where id = $1::int4 and exists (select 1 from vote)
    returning votes
  )
  select v.silver, c.votes from voter v, claim c`;

app.post('/vote', async (req) => {
  const actor = await actorOf(req.headers.authorization);
  const { claimId, votes: n } = req.body as { claimId: number; votes: number };
  let done: { silver: number; votes: number } | undefined;
  try {
    [done] = await db.query<{ silver: number; votes: number }>(
      CAST_VOTE,
      [claimId, actor.user_id, n, new Date()],
      'vote',
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw new HttpError(409, 'You have already voted on this claim.', 'ALREADY_VOTED');
    throw err;
  }
  // The product names the broken rule with further reads; the benchmark's votes all pass.
  if (!done) throw new HttpError(409, 'Vote refused.', 'VOTE_REFUSED');
  return { claimId, vote: n, votes: done.votes, silver: done.silver };
});

// The bare floor: the simplest route there is, one indexed primary-key SELECT answered as
// ~340 B of JSON, no session. Every endpoint is also compared with it ("× bare").
app.get('/bare/:id', async (req) => {
  const id = Number((req.params as { id: string }).id);
  const [c] = await db.query<Row>(
    'select id, bounty_id, round_number, hunter_id, media, votes, created_at from claims where id = $1',
    [id],
    'bare',
  );
  if (!c) throw new HttpError(404, 'Claim not found.', 'CLAIM_NOT_FOUND');
  return {
    claimId: c.id,
    bountyId: c.bounty_id,
    roundId: c.round_number,
    hunterId: c.hunter_id,
    media: c.media,
    votes: c.votes,
    created: iso(c.created_at as Date),
    links: {
      self: `/claim/${c.id as number}`,
      bounty: `/bounty/${c.bounty_id as number}`,
      rank: `/claim/rank/${c.id as number}`,
    },
  };
});

app.get('/health', async () => ({ status: 'ok' }));

await app.listen({ port, host: '127.0.0.1' });
console.log(`floor listening on ${port}`);

async function stop() {
  await app.close();
  await db.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
