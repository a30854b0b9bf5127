/**
 * Silver's SQL fragments, for the one statement that cannot call silver.service.ts: the vote
 * (docs/decisions/0006-votes-in-one-statement.md), which debits the voter, records the ledger
 * row and the vote together in one round trip. Everything else changes silver through
 * `debitSilver` / `creditSilver` / `creditSilverMany` (silver.service.ts). Both paths keep the
 * rule of that file: users.silver and a silver_ledger row change together, never below zero.
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * A data-modifying CTE body: takes `amount` from the user `u` (alias of users) when the
 * balance covers it. `alsoSet`, `from`, `where` and `returning` add to the update (the vote
 * counts, checks and returns its own columns); the balance after is returned as `silver`.
 */
export function silverDebitUpdate(o: {
  userId: SQL;
  amount: SQL;
  alsoSet?: SQL;
  from?: SQL;
  where?: SQL;
  returning?: SQL;
}): SQL {
  return sql`update users u set silver = u.silver - ${o.amount}${o.alsoSet ? sql`, ${o.alsoSet}` : sql``}
      ${o.from ? sql`from ${o.from}` : sql``}
      where u.id = ${o.userId} and u.silver >= ${o.amount}${o.where ? sql` and ${o.where}` : sql``}
      returning u.silver${o.returning ? sql`, ${o.returning}` : sql``}`;
}

/** A data-modifying CTE body: the ledger row of each row of `source` (a debit's CTE). */
export function silverLedgerInsert(o: {
  source: SQL;
  userId: SQL;
  delta: SQL;
  balanceAfter: SQL;
  reason: SQL;
  refId: SQL;
  at: SQL;
}): SQL {
  return sql`insert into silver_ledger (user_id, delta, balance_after, reason, ref_id, created_at)
      select ${o.userId}, ${o.delta}, ${o.balanceAfter}, ${o.reason}, ${o.refId}, ${o.at}
      from ${o.source}`;
}
