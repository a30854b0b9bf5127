/** Keyset paging on (created_at desc, id desc): the condition of the rows after a cursor. */
import { sql, type SQL } from 'drizzle-orm';

export interface Keyset {
  /** Microsecond-exact ISO timestamp of the cursor row (lib/dates.ts microsecondKey). */
  ts: string;
  id: number;
  /**
   * Which rows of this table come after the cursor: 'by-id' those with (created_at, id) below
   * the cursor's; 'strict' those created before it; 'inclusive' those created before or at it.
   */
  mode: 'by-id' | 'strict' | 'inclusive';
}

/** ` and …` for a query over `alias` (empty without a cursor). */
export function keysetWhere(alias: string, k: Keyset | undefined): SQL {
  if (!k) return sql``;
  const created = sql.raw(`${alias}.created_at`);
  const id = sql.raw(`${alias}.id`);
  switch (k.mode) {
    case 'by-id':
      return sql` and (${created}, ${id}) < (${k.ts}::timestamptz, ${k.id})`;
    case 'strict':
      return sql` and ${created} < ${k.ts}::timestamptz`;
    case 'inclusive':
      return sql` and ${created} <= ${k.ts}::timestamptz`;
  }
}
