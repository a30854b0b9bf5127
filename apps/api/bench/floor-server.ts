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
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}
interface Database extends Queryable {
  transaction<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function open(): Promise<Database> {
  if (url.startsWith('postgres')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return {
      async query<T>(text: string, params?: unknown[]) {
        return (await pool.query(text, params)).rows as T[];
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
  const out = new Map<number, RoundOut[]>();
  if (ids.length === 0) return out;
  for (const row of await db.query<Row>(ROUNDS_WITH_CLAIMS, [ids, perRound])) {
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
  const body = (req.body ?? {}) as { term?: string; limit?: number };
  const limit = body.limit ?? 10;
  const tsquery = toPrefixQuery(body.term ?? '');
  const rows = tsquery
    ? await db.query<Row>(SEARCH_TERM, [tsquery, limit + 1])
    : await db.query<Row>(SEARCH_ALL, [limit + 1]);
  const page = rows.slice(0, limit);
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

app.get('/bounty/:id', async (req) => {
  const id = Number((req.params as { id: string }).id);
  const [row] = await db.query<Row>('select * from bounties where id = $1 limit 1', [id]);
  if (!row) throw new HttpError(404, 'Bounty not found.', 'BOUNTY_NOT_FOUND');
  const rounds = await roundsOf([id], 500);
  return presentBounty(row, rounds.get(id) ?? []);
});

app.get('/claim/:id', async (req) => {
  const id = Number((req.params as { id: string }).id);
  const [row] = await db.query<Row>(`select ${CLAIM_COLUMNS} ${CLAIM_JOINS} where c.id = $1`, [id]);
  if (!row) throw new HttpError(404, 'Claim not found.', 'CLAIM_NOT_FOUND');
  return presentClaim(row);
});

app.get('/user', async (req) => {
  const actor = await actorOf(req.headers.authorization);
  const [u] = await db.query<Row>('select * from users where id = $1 limit 1', [actor.user_id]);
  if (!u) throw new HttpError(401, 'Sign in first.', 'UNAUTHORIZED');
  const [h] =
    ((u.role as number) & 2) !== 0
      ? await db.query<Row>('select * from hunters where user_id = $1 limit 1', [u.id])
      : [];
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

app.post('/vote', async (req) => {
  const actor = await actorOf(req.headers.authorization);
  const { claimId, votes: n } = req.body as { claimId: number; votes: number };
  const now = new Date();
  const [member] = await db.query<{ role: number; active: Date | null }>(
    'select role, active from users where id = $1',
    [actor.user_id],
  );
  if (!member || (member.role & 1) === 0 || !member.active || member.active < now)
    throw new HttpError(403, 'An active membership is needed to do this.', 'MEMBERSHIP_REQUIRED');
  return db.transaction(async (tx) => {
    const [claim] = await tx.query<Row>('select * from claims where id = $1 limit 1', [claimId]);
    if (!claim) throw new HttpError(404, 'Claim not found.', 'CLAIM_NOT_FOUND');
    const [hunter] = await tx.query<{ user_id: number }>(
      'select user_id from hunters where id = $1 limit 1',
      [claim.hunter_id],
    );
    if (hunter?.user_id === actor.user_id)
      throw new HttpError(403, 'You cannot vote on your own claim.', 'OWN_CLAIM');
    const [round] = await tx.query<{ end_date: Date | null }>(
      'select * from rounds where bounty_id = $1 and number = $2 limit 1 for share',
      [claim.bounty_id, claim.round_number],
    );
    if (!round?.end_date || round.end_date < now)
      throw new HttpError(409, 'This round is not active.', 'ROUND_NOT_ACTIVE');
    const lock = [...new Set([actor.user_id, ...(hunter ? [hunter.user_id] : [])])].sort(
      (a, b) => a - b,
    );
    await tx.query(
      'select id from users where id = any($1::int4[]) order by id for no key update',
      [lock],
    );
    const inserted = await tx.query(
      `insert into votes (claim_id, user_id, value, created_at) values ($1, $2, $3, $4)
        on conflict (claim_id, user_id) do nothing returning id`,
      [claimId, actor.user_id, n, now],
    );
    if (inserted.length === 0)
      throw new HttpError(409, 'You have already voted on this claim.', 'ALREADY_VOTED');
    const [debit] = await tx.query<{ silver: number }>(
      'update users set silver = silver - $2 where id = $1 and silver >= $2 returning silver',
      [actor.user_id, n],
    );
    if (!debit) throw new HttpError(402, 'Not enough silver.', 'NOT_ENOUGH_SILVER');
    await tx.query(
      `insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
        values ($1, $2, $3, 'vote', $4, $5)`,
      [actor.user_id, -n, debit.silver, claimId, now],
    );
    if (hunter) {
      const [credit] = await tx.query<{ silver: number }>(
        'update users set silver = silver + $2 where id = $1 returning silver',
        [hunter.user_id, n],
      );
      await tx.query(
        `insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
          values ($1, $2, $3, 'vote_earnings', $4, $5)`,
        [hunter.user_id, n, credit!.silver, claimId, now],
      );
    }
    const [total] = await tx.query<{ votes: number }>(
      'update claims set votes = votes + $2 where id = $1 returning votes',
      [claimId, n],
    );
    await tx.query('update users set votes = votes + $2 where id = $1', [actor.user_id, n]);
    return { claimId, vote: n, votes: total!.votes, silver: debit.silver };
  });
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
