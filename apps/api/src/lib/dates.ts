/**
 * The one way the API turns stored times into the ISO text of its answers (CONTRACT.md:
 * dates are ISO date-times, millisecond precision, UTC) and into the microsecond keys of
 * its cursors.
 */
import { sql, type SQL } from 'drizzle-orm';

/** A timestamp as the driver returns it (Date from pg and PGlite, text from raw rows) → ISO. */
export function iso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  return isoFromUtcText(value) ?? new Date(value).toISOString();
}

/**
 * PostgreSQL's text of a timestamptz in a UTC session ("2026-11-27 02:29:47.606789+00", the
 * fraction optional and without trailing zeros) → ISO by slicing, as `new Date(text)` reads
 * it (milliseconds truncated) at a tenth of its cost: raw rows of node-postgres carry their
 * times as text, ~300 of them in a page of searched bounties. Anything else: undefined.
 */
export function isoFromUtcText(text: string): string | undefined {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(10) !== 32 /* ' ' */ ||
    text.charCodeAt(n - 3) !== 43 /* '+' */ ||
    text.charCodeAt(n - 2) !== 48 /* '0' */ ||
    text.charCodeAt(n - 1) !== 48 ||
    (n > 22 && text.charCodeAt(19) !== 46) /* '.' */
  )
    return undefined;
  const ms = n > 22 ? `${text.slice(20, Math.min(n - 3, 23))}00`.slice(0, 3) : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

/** `iso` for columns that may be null. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value == null ? null : iso(value);
}

/**
 * A microsecond key (see `microsecondKey`) → the ISO date of an answer, by truncating the
 * text: driver-independent (no float parsing of fractional seconds).
 */
export function isoFromKey(key: string): string {
  return `${key.slice(0, 23)}Z`;
}

/** Shape of a microsecond key: what cursors carry. */
export const MICROSECOND_KEY_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * SQL: a timestamptz column as microsecond-exact UTC text (JS dates stop at milliseconds, so a
 * keyset cursor built from a Date could skip or repeat rows created in the same millisecond).
 */
export function microsecondKey(column: SQL): SQL {
  return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
