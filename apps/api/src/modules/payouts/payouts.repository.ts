/** SQL of the payouts module's own tables: earnings, balances, payout runs and tax forms. */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';

/** Positive micro-dollars of a hunter's pending and available balances. */
export async function hunterBalances(
  db: DbOrTx,
  userId: number,
): Promise<{ pending: number; available: number }> {
  const rows = await queryRows<{ code: string; balance: string }>(
    db,
    sql`select code, balance::text from ledger_accounts
        where user_id = ${userId} and code in ('hunter_pending', 'hunter_available')`,
  );
  const of = (code: string) => 0 - Number(rows.find((r) => r.code === code)?.balance ?? 0);
  return { pending: of('hunter_pending'), available: of('hunter_available') };
}

/**
 * Marks up to `limit` earnings past their hold as released (skipping rows another run holds)
 * and answers what each hunter gets moved from pending to available, in micro-dollars.
 */
export function releaseDueEarnings(
  tx: DbOrTx,
  cutoff: Date,
  now: Date,
  limit: number,
): Promise<{ user_id: number; micros: string; n: number }[]> {
  return queryRows(
    tx,
    sql`with due as (
        select id, user_id, micros - reversed_micros as open from hunter_earnings
        where released_at is null and earned_at <= ${cutoff}
        order by id limit ${limit} for update skip locked
      ), released as (
        update hunter_earnings e set released_at = ${now} from due where e.id = due.id
      )
      select user_id, sum(open)::text as micros, count(*)::int as n from due group by user_id order by user_id`,
  );
}

/** Hunters with anything available, most first; `lock` takes their balance rows for a run. */
export function availableBalances(
  db: DbOrTx,
  opts: { atLeastMicros: number; lock: boolean },
): Promise<{ user_id: number; micros: string }[]> {
  return queryRows(
    db,
    sql`select user_id, (0 - balance)::text as micros from ledger_accounts
        where code = 'hunter_available' and balance <= ${-opts.atLeastMicros} and balance < 0
        order by user_id ${opts.lock ? sql`for update` : sql``}`,
  );
}

/** The earned amount (net of reversals) per week (Monday, UTC) since `from`. */
export function weeklyEarnings(
  db: DbOrTx,
  userId: number,
  from: Date,
): Promise<{ week: string; micros: string }[]> {
  return queryRows(
    db,
    sql`select to_char(date_trunc('week', earned_at at time zone 'UTC'), 'YYYY-MM-DD') as week,
          sum(micros - reversed_micros)::text as micros
        from hunter_earnings where user_id = ${userId} and earned_at >= ${from}
        group by 1 order by 1`,
  );
}

export interface PayoutRow {
  id: number;
  batch_id: number;
  user_id: number;
  amount_cents: number;
  legal_name: string;
  account_last_four: string;
  status: 'sent' | 'returned';
  return_code: string | null;
  returned_at: Date | string | null;
  created_at: Date | string;
}

export function payoutsOfUser(db: DbOrTx, userId: number, limit: number): Promise<PayoutRow[]> {
  return queryRows(
    db,
    sql`select id, batch_id, user_id, amount_cents, legal_name, account_last_four, status,
          return_code, returned_at, created_at
        from payouts where user_id = ${userId} order by id desc limit ${limit}`,
  );
}

export function payoutsOfBatch(db: DbOrTx, batchId: number): Promise<PayoutRow[]> {
  return queryRows(
    db,
    sql`select id, batch_id, user_id, amount_cents, legal_name, account_last_four, status,
          return_code, returned_at, created_at
        from payouts where batch_id = ${batchId} order by id`,
  );
}

export async function lockPayout(db: DbOrTx, id: number): Promise<PayoutRow | undefined> {
  const [row] = await queryRows<PayoutRow>(
    db,
    sql`select id, batch_id, user_id, amount_cents, legal_name, account_last_four, status,
          return_code, returned_at, created_at
        from payouts where id = ${id} for update`,
  );
  return row;
}

export async function paidCentsOf(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await queryRows<{ total: string }>(
    db,
    sql`select coalesce(sum(amount_cents), 0)::text as total from payouts
        where user_id = ${userId} and status = 'sent'`,
  );
  return Number(row?.total ?? 0);
}

export interface BatchRow {
  id: number;
  kind: 'scheduled' | 'manual';
  week_of: string | null;
  file_name: string;
  count: number;
  total_cents: string;
  returned_cents: string;
  created_at: Date | string;
}

const batchColumns = sql`b.id, b.kind, to_char(b.week_of, 'YYYY-MM-DD') as week_of, b.file_name, b.count,
  b.total_cents::text, b.created_at,
  (select coalesce(sum(p.amount_cents), 0) from payouts p where p.batch_id = b.id and p.status = 'returned')::text as returned_cents`;

export function listBatches(db: DbOrTx, beforeId: number | undefined, limit: number) {
  return queryRows<BatchRow>(
    db,
    sql`select ${batchColumns} from payout_batches b
        where b.count > 0 ${beforeId !== undefined ? sql`and b.id < ${beforeId}` : sql``}
        order by b.id desc limit ${limit}`,
  );
}

export async function findBatch(db: DbOrTx, id: number): Promise<BatchRow | undefined> {
  const [row] = await queryRows<BatchRow>(
    db,
    sql`select ${batchColumns} from payout_batches b where b.id = ${id} and b.count > 0`,
  );
  return row;
}

/** A new run's row; for a scheduled run null when this week's already exists. */
export async function insertBatch(
  tx: DbOrTx,
  v: { kind: 'scheduled' | 'manual'; weekOf: string | null; createdBy: number | null; at: Date },
): Promise<number | null> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into payout_batches (kind, week_of, created_by, file_name, count, total_cents, created_at)
        values (${v.kind}, ${v.weekOf}, ${v.createdBy}, '', 0, 0, ${v.at})
        on conflict (week_of) where kind = 'scheduled' do nothing returning id`,
  );
  return row?.id ?? null;
}

export async function finishBatch(
  tx: DbOrTx,
  id: number,
  v: { fileName: string; count: number; totalCents: number },
): Promise<void> {
  await tx.execute(
    sql`update payout_batches set file_name = ${v.fileName}, count = ${v.count}, total_cents = ${v.totalCents}
        where id = ${id}`,
  );
}

export function insertPayouts(
  tx: DbOrTx,
  batchId: number,
  at: Date,
  rows: {
    userId: number;
    amountCents: number;
    legalName: string;
    routingNumber: string;
    accountType: string;
    accountLastFour: string;
  }[],
): Promise<{ id: number; user_id: number }[]> {
  return queryRows(
    tx,
    sql`insert into payouts (batch_id, user_id, amount_cents, legal_name, routing_number, account_type,
          account_last_four, status, created_at)
        select ${batchId}, * , 'sent', ${at}::timestamptz from unnest(
          ${sql.param(rows.map((r) => r.userId))}::int4[],
          ${sql.param(rows.map((r) => r.amountCents))}::int4[],
          ${sql.param(rows.map((r) => r.legalName))}::text[],
          ${sql.param(rows.map((r) => r.routingNumber))}::text[],
          ${sql.param(rows.map((r) => r.accountType))}::text[],
          ${sql.param(rows.map((r) => r.accountLastFour))}::text[])
        returning id, user_id`,
  );
}

export async function setPayoutReturned(
  tx: DbOrTx,
  id: number,
  code: string,
  at: Date,
): Promise<void> {
  await tx.execute(
    sql`update payouts set status = 'returned', return_code = ${code}, returned_at = ${at} where id = ${id}`,
  );
}

/** Money sent in a calendar year (payouts not returned), per hunter, at least `thresholdCents`. */
export function paidInYear(
  db: DbOrTx,
  year: number,
  thresholdCents: number,
): Promise<{ user_id: number; cents: string }[]> {
  return queryRows(
    db,
    sql`select user_id, sum(amount_cents)::text as cents from payouts
        where status = 'sent' and created_at >= ${new Date(Date.UTC(year, 0, 1))}
          and created_at < ${new Date(Date.UTC(year + 1, 0, 1))}
        group by user_id having sum(amount_cents) >= ${thresholdCents} order by user_id`,
  );
}

export interface TaxFormRow {
  user_id: number;
  year: number;
  amount_cents: string;
  legal_name: string;
  street: string;
  city_state_zip: string;
  tin_last_four: string;
  created_at: Date | string;
}

export async function upsertTaxForm(
  tx: DbOrTx,
  v: {
    userId: number;
    year: number;
    amountCents: number;
    legalName: string;
    street: string;
    cityStateZip: string;
    tinLastFour: string;
    at: Date;
  },
): Promise<void> {
  await tx.execute(
    sql`insert into tax_forms (user_id, year, amount_cents, legal_name, street, city_state_zip, tin_last_four, created_at)
        values (${v.userId}, ${v.year}, ${v.amountCents}, ${v.legalName}, ${v.street}, ${v.cityStateZip},
          ${v.tinLastFour}, ${v.at})
        on conflict (user_id, year) do update set amount_cents = excluded.amount_cents,
          legal_name = excluded.legal_name, street = excluded.street,
          city_state_zip = excluded.city_state_zip, tin_last_four = excluded.tin_last_four,
          created_at = excluded.created_at`,
  );
}

const taxColumns = sql`user_id, year, amount_cents::text, legal_name, street, city_state_zip, tin_last_four, created_at`;

export function taxFormsOfUser(db: DbOrTx, userId: number): Promise<TaxFormRow[]> {
  return queryRows(
    db,
    sql`select ${taxColumns} from tax_forms where user_id = ${userId} order by year desc`,
  );
}

export function taxFormsOfYear(db: DbOrTx, year: number): Promise<TaxFormRow[]> {
  return queryRows(
    db,
    sql`select ${taxColumns} from tax_forms where year = ${year} order by user_id`,
  );
}

export async function findTaxForm(
  db: DbOrTx,
  userId: number,
  year: number,
): Promise<TaxFormRow | undefined> {
  const [row] = await queryRows<TaxFormRow>(
    db,
    sql`select ${taxColumns} from tax_forms where user_id = ${userId} and year = ${year}`,
  );
  return row;
}
