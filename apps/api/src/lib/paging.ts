/**
 * The one paging convention of the API's lists (feed search, profile posts/claims/feed, the
 * hunters directory):
 * - a page size is `{ default, max }` (the values live in packages/shared next to each list's
 *   query schema); `pageLimit` picks the asked size within them;
 * - the repository is asked for `limit + 1` rows; `takePage` keeps `limit` and, when the extra
 *   row exists, makes the cursor of the next page from the last row kept;
 * - a cursor is opaque to clients: base64url of the JSON of a small keyset, decoded against a
 *   zod schema (`encodeCursor` / `decodeCursor`); a cursor that does not decode is a 400 with
 *   the list's own message;
 * - the answer is the array of items; the next page's cursor travels in the
 *   `x-next-cursor` header (NEXT_CURSOR_HEADER), absent on the last page (`sendPage`).
 */
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

export interface PageSize {
  default: number;
  max: number;
}

export interface Page<T> {
  items: T[];
  /** Cursor of the next page, or null on the last one. */
  next: string | null;
}

export function pageLimit(asked: number | undefined, size: PageSize): number {
  return Math.min(asked ?? size.default, size.max);
}

/** The first `limit` of `rows` (fetched as limit + 1) and the cursor of the page after them. */
export function takePage<R>(
  rows: R[],
  limit: number,
  keyOf: (last: R) => object,
): { rows: R[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

export function encodeCursor(key: object): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The keyset a cursor carries, checked against `schema` (unknown keys dropped); undefined for
 * no cursor; `invalid()` is thrown for anything else, so no client text reaches SQL unchecked.
 */
export function decodeCursor<S extends z.ZodType>(
  raw: string | undefined,
  schema: S,
  invalid: () => Error,
): z.output<S> | undefined {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/** Sets the next-page header when there is a next page. */
export function setNextCursor(reply: FastifyReply, next: string | null): void {
  if (next) reply.header(NEXT_CURSOR_HEADER, next);
}

/** A paged list's answer: the items, with the next cursor in the header. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  setNextCursor(reply, page.next);
  return page.items;
}
