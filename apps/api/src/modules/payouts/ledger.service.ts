/**
 * The money ledger (issue 18): double-entry, integer micro-dollars (1 cent = 10,000), debits
 * positive and credits negative. Every movement is one ledger transaction whose entries sum to
 * zero, and each account's `balance` moves with its entries in the same database transaction,
 * so at any moment every balance equals the sum of its entries and all balances sum to zero
 * (`ledgerRecount` proves it; tests and the benchmark call it). Nothing is ever edited: a
 * reversal is a new transaction (the tables refuse UPDATE and DELETE).
 *
 * Accounts: the platform's `member_cash` (money members paid), `silver_liability` (silver
 * issued and not yet spent, what it is worth), `promotions` (silver given without a charge),
 * `platform_revenue`, `paid_out` (money sent to hunters' banks); per hunter `hunter_pending`
 * (earned, in the holding period) and `hunter_available` (cleared, paid by the next run).
 *
 * Other modules call the `record…` functions inside their own transaction, next to the change
 * that moves the money (a charge, a silver grant, settled votes, a decided bounty, a hidden claim).
 */
import { sql } from 'drizzle-orm';
import { PLANS } from '@bountyhunt/shared/billing';
import { MICROS_PER_CENT } from '@bountyhunt/shared/payouts';
import { queryRows, type DbOrTx } from '../../db/client';

export const ACCOUNT_CODES = [
  'member_cash',
  'silver_liability',
  'promotions',
  'platform_revenue',
  'paid_out',
  'hunter_pending',
  'hunter_available',
] as const;
export type AccountCode = (typeof ACCOUNT_CODES)[number];

export interface LedgerLine {
  code: AccountCode;
  /** The hunter of a per-hunter account; omitted (0) for the platform's. */
  userId?: number;
  /** Micro-dollars; debit positive, credit negative. */
  amount: number;
}

export interface LedgerPosting {
  kind: string;
  refType?: string;
  refId?: number | null;
  at: Date;
  lines: LedgerLine[];
}

export class LedgerImbalanceError extends Error {}

/** Micro-dollars of `silver` tokens bought on a plan: its price ÷ its silver (exact for every plan). */
export function silverValueMicros(planIndex: number | null | undefined, silver: number): number {
  const plan = PLANS[planIndex ?? 0] ?? PLANS[0];
  return Math.floor((silver * plan.priceCents * MICROS_PER_CENT) / plan.silver);
}

/** The hunter's part of `micros` at a creator share (0..1), rounded down to the micro-dollar. */
export function creatorPart(micros: number, share: number): number {
  const bp = Math.round(share * 10_000);
  return Math.floor((micros * bp) / 10_000);
}

/**
 * Writes one balanced transaction: lines of the same account are merged, zero lines dropped,
 * accounts created on first use and their balances moved in (code, user) order so that two
 * transactions never wait on each other in a cycle. Returns the transaction id, or null when
 * every line was zero.
 */
export async function postLedger(db: DbOrTx, p: LedgerPosting): Promise<number | null> {
  const merged = new Map<string, { code: AccountCode; userId: number; amount: number }>();
  for (const l of p.lines) {
    if (!Number.isSafeInteger(l.amount))
      throw new LedgerImbalanceError(`ledger amount must be a whole number of micro-dollars`);
    const userId = l.userId ?? 0;
    const key = `${l.code}:${userId}`;
    const m = merged.get(key);
    if (m) m.amount += l.amount;
    else merged.set(key, { code: l.code, userId, amount: l.amount });
  }
  const lines = [...merged.values()]
    .filter((l) => l.amount !== 0)
    .sort((a, b) => (a.code === b.code ? a.userId - b.userId : a.code < b.code ? -1 : 1));
  const sum = lines.reduce((a, l) => a + l.amount, 0);
  if (sum !== 0) throw new LedgerImbalanceError(`ledger transaction ${p.kind} is off by ${sum}`);
  if (lines.length === 0) return null;
  const [txn] = await queryRows<{ id: number }>(
    db,
    sql`insert into ledger_transactions (kind, ref_type, ref_id, created_at)
        values (${p.kind}, ${p.refType ?? null}, ${p.refId ?? null}, ${p.at}) returning id`,
  );
  const txnId = txn!.id;
  await db.execute(sql`with lines as (
      select * from unnest(${sql.param(lines.map((l) => l.code))}::text[],
        ${sql.param(lines.map((l) => l.userId))}::int4[],
        ${sql.param(lines.map((l) => String(l.amount)))}::int8[]) with ordinality as t(code, user_id, amount, n)
    ), moved as (
      insert into ledger_accounts (code, user_id, balance)
      select code, user_id, amount from lines order by n
      on conflict (code, user_id) do update set balance = ledger_accounts.balance + excluded.balance
      returning id, code, user_id
    )
    insert into ledger_entries (txn_id, account_id, amount)
    select ${txnId}, m.id, l.amount from lines l join moved m using (code, user_id)`);
  return txnId;
}

/** A member paid for a membership or its renewal: the money is in, the plan's silver is owed. */
export function recordMemberPayment(
  db: DbOrTx,
  p: { chargeId: number; cents: number; kind: 'membership' | 'renewal'; at: Date },
): Promise<number | null> {
  const micros = p.cents * MICROS_PER_CENT;
  return postLedger(db, {
    kind: p.kind,
    refType: 'charge',
    refId: p.chargeId,
    at: p.at,
    lines: [
      { code: 'member_cash', amount: micros },
      { code: 'silver_liability', amount: -micros },
    ],
  });
}

/** Silver given without a charge (an admin's grant): a promotion the platform pays for when spent. */
export function recordSilverGrant(
  db: DbOrTx,
  p: { userId: number; silver: number; planIndex: number | null; at: Date },
): Promise<number | null> {
  const micros = silverValueMicros(p.planIndex, p.silver);
  return postLedger(db, {
    kind: 'silver_grant',
    refType: 'user',
    refId: p.userId,
    at: p.at,
    lines: [
      { code: 'promotions', amount: micros },
      { code: 'silver_liability', amount: -micros },
    ],
  });
}

export interface EarningItem {
  hunterUserId: number;
  source: 'votes' | 'prize';
  claimId: number | null;
  bountyId: number | null;
  /** What the spent silver is worth (silverValueMicros of the spender's plan). */
  valueMicros: number;
  /** The claim was hidden before it was settled: nothing goes to the hunter. */
  forfeit?: boolean;
}

/**
 * Silver spent on hunters (settled votes, a won prize), in one ledger transaction: the silver
 * liability goes down by its value, the hunters' pending balances up by their share, the rest
 * is revenue; one hunter_earnings row per item (the unit held, released or reversed).
 */
export async function recordEarnings(
  db: DbOrTx,
  items: EarningItem[],
  p: { kind: 'vote_earnings' | 'prize'; refType?: string; refId?: number; at: Date; share: number },
): Promise<void> {
  if (items.length === 0) return;
  const lines: LedgerLine[] = [];
  const rows: {
    userId: number;
    source: string;
    claimId: number | null;
    bountyId: number | null;
    micros: number;
  }[] = [];
  for (const it of items) {
    const hunter = it.forfeit ? 0 : creatorPart(it.valueMicros, p.share);
    lines.push({ code: 'silver_liability', amount: it.valueMicros });
    lines.push({ code: 'platform_revenue', amount: -(it.valueMicros - hunter) });
    if (hunter > 0) {
      lines.push({ code: 'hunter_pending', userId: it.hunterUserId, amount: -hunter });
      rows.push({
        userId: it.hunterUserId,
        source: it.source,
        claimId: it.claimId,
        bountyId: it.bountyId,
        micros: hunter,
      });
    }
  }
  await postLedger(db, {
    kind: p.kind,
    ...(p.refType ? { refType: p.refType } : {}),
    ...(p.refId !== undefined ? { refId: p.refId } : {}),
    at: p.at,
    lines,
  });
  if (rows.length)
    await db.execute(sql`insert into hunter_earnings (user_id, source, claim_id, bounty_id, micros, earned_at)
      select * , ${p.at}::timestamptz from unnest(${sql.param(rows.map((r) => r.userId))}::int4[],
        ${sql.param(rows.map((r) => r.source))}::text[],
        ${sql.param(rows.map((r) => r.claimId))}::int4[],
        ${sql.param(rows.map((r) => r.bountyId))}::int4[],
        ${sql.param(rows.map((r) => String(r.micros)))}::int8[])`);
}

/**
 * Takes back up to `limitMicros` (all when null) of what hunters earned on a claim and have not
 * been paid: pending earnings first in full, cleared ones up to the hunter's available balance
 * (paid money is not clawed back). Marks the earnings rows and answers the ledger lines that
 * debit the hunters' accounts; the caller adds the counter-line and posts.
 */
async function takeBackClaimEarnings(
  db: DbOrTx,
  claimId: number,
  limitMicros: number | null,
): Promise<{ lines: LedgerLine[]; total: number }> {
  const rows = await queryRows<{
    id: number;
    user_id: number;
    open: string;
    released: boolean;
  }>(
    db,
    sql`select id, user_id, (micros - reversed_micros)::text as open, released_at is not null as released
        from hunter_earnings where claim_id = ${claimId} and micros > reversed_micros
        order by released_at is not null, id for update`,
  );
  const lines: LedgerLine[] = [];
  const taken = new Map<number, number>();
  const availableLeft = new Map<number, number>();
  let left = limitMicros ?? Number.MAX_SAFE_INTEGER;
  for (const r of rows) {
    let amount = Math.min(Number(r.open), left);
    if (r.released) {
      if (!availableLeft.has(r.user_id))
        availableLeft.set(r.user_id, await lockedAvailable(db, r.user_id));
      amount = Math.min(amount, availableLeft.get(r.user_id)!);
      availableLeft.set(r.user_id, availableLeft.get(r.user_id)! - amount);
    }
    if (amount <= 0) continue;
    left -= amount;
    taken.set(r.id, amount);
    lines.push({
      code: r.released ? 'hunter_available' : 'hunter_pending',
      userId: r.user_id,
      amount,
    });
  }
  if (taken.size) {
    const ids = [...taken.keys()];
    await db.execute(sql`update hunter_earnings e set reversed_micros = e.reversed_micros + t.amount
      from unnest(${sql.param(ids)}::int4[], ${sql.param(ids.map((i) => String(taken.get(i))))}::int8[]) as t(id, amount)
      where e.id = t.id`);
  }
  return { lines, total: [...taken.values()].reduce((a, v) => a + v, 0) };
}

/**
 * A claim was hidden by moderators: what its hunter earned on it and has not been paid is
 * taken back with new rows (pending earnings in full; cleared ones up to the available balance,
 * since paid money is not clawed back). The platform keeps it. Returns the micro-dollars reversed.
 */
export async function reverseClaimEarnings(db: DbOrTx, claimId: number, at: Date): Promise<number> {
  const { lines, total } = await takeBackClaimEarnings(db, claimId, null);
  if (total === 0) return 0;
  await postLedger(db, {
    kind: 'reversal',
    refType: 'claim',
    refId: claimId,
    at,
    lines: [...lines, { code: 'platform_revenue', amount: -total }],
  });
  return total;
}

/**
 * A member's payment was refunded: the cash goes back out, the silver taken back from the
 * member is no longer owed, and what hunters earned from the refunded silver the member had
 * already spent (`spent`: per claim, the hunters' share) is taken back while unpaid. What could
 * not be taken back (already paid out, or silver spent on bounty prizes still held) is the
 * platform's loss. Returns the micro-dollars taken back from hunters.
 */
export async function recordRefund(
  db: DbOrTx,
  p: {
    chargeId: number;
    cents: number;
    silverTakenMicros: number;
    spent: { claimId: number; hunterMicros: number }[];
    at: Date;
  },
): Promise<number> {
  const lines: LedgerLine[] = [];
  let reversed = 0;
  for (const s of p.spent) {
    const got = await takeBackClaimEarnings(db, s.claimId, s.hunterMicros);
    lines.push(...got.lines);
    reversed += got.total;
  }
  const cash = p.cents * MICROS_PER_CENT;
  await postLedger(db, {
    kind: 'refund',
    refType: 'charge',
    refId: p.chargeId,
    at: p.at,
    lines: [
      { code: 'member_cash', amount: -cash },
      { code: 'silver_liability', amount: p.silverTakenMicros },
      ...lines,
      { code: 'platform_revenue', amount: cash - p.silverTakenMicros - reversed },
    ],
  });
  return reversed;
}

/** The hunter's available balance (micro-dollars, positive), its account row locked. */
export async function lockedAvailable(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await queryRows<{ balance: string }>(
    db,
    sql`select balance::text from ledger_accounts where code = 'hunter_available' and user_id = ${userId} for update`,
  );
  return row ? -Number(row.balance) : 0;
}

export interface LedgerRecount {
  accounts: number;
  entries: number;
  /** Sum of every balance (0 when balanced). */
  balanceSum: number;
  /** Sum of every entry (0 when balanced). */
  entrySum: number;
  /** Transactions whose entries do not sum to zero. */
  unbalancedTransactions: number;
  /** Accounts whose balance differs from the sum of their entries. */
  mismatched: { code: string; userId: number; balance: number; entries: number }[];
  byCode: Record<string, number>;
}

/** Recounts the whole ledger from its entries (tests, the benchmark, the console). */
export async function ledgerRecount(db: DbOrTx): Promise<LedgerRecount> {
  const accounts = await queryRows<{
    code: string;
    user_id: number;
    balance: string;
    entries: string;
    n: number;
  }>(
    db,
    sql`select a.code, a.user_id, a.balance::text, coalesce(e.total, 0)::text as entries, coalesce(e.n, 0)::int as n
        from ledger_accounts a
        left join (select account_id, sum(amount) as total, count(*) as n from ledger_entries group by account_id) e
          on e.account_id = a.id`,
  );
  const [unbalanced] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select txn_id from ledger_entries group by txn_id having sum(amount) <> 0) t`,
  );
  const byCode: Record<string, number> = {};
  let balanceSum = 0;
  let entrySum = 0;
  let entries = 0;
  const mismatched: LedgerRecount['mismatched'] = [];
  for (const a of accounts) {
    const balance = Number(a.balance);
    const total = Number(a.entries);
    balanceSum += balance;
    entrySum += total;
    entries += a.n;
    byCode[a.code] = (byCode[a.code] ?? 0) + balance;
    if (balance !== total)
      mismatched.push({ code: a.code, userId: a.user_id, balance, entries: total });
  }
  return {
    accounts: accounts.length,
    entries,
    balanceSum,
    entrySum,
    unbalancedTransactions: unbalanced?.n ?? 0,
    mismatched,
    byCode,
  };
}
