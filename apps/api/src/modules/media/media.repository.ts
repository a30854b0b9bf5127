/** The only code that touches the media table. */
import { and, eq, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { media } from '../../db/schema/media';

export type MediaRow = typeof media.$inferSelect;
export type NewMediaRow = typeof media.$inferInsert;

export async function insertMedia(db: DbOrTx, row: NewMediaRow): Promise<MediaRow> {
  const [created] = await db.insert(media).values(row).returning();
  return created!;
}

export async function findMedia(db: DbOrTx, key: string): Promise<MediaRow | null> {
  const [row] = await db.select().from(media).where(eq(media.key, key)).limit(1);
  return row ?? null;
}

export async function updateMedia(
  db: DbOrTx,
  key: string,
  patch: Partial<Pick<MediaRow, 'status' | 'error' | 'width' | 'height'>>,
): Promise<void> {
  await db.update(media).set(patch).where(eq(media.key, key));
}

/** A video's size while it is still processing; the row after, or undefined when it was not. */
export async function setProcessingSize(
  db: DbOrTx,
  key: string,
  width: number,
  height: number,
): Promise<MediaRow | undefined> {
  const [row] = await db
    .update(media)
    .set({ width, height })
    .where(and(eq(media.key, key), eq(media.status, 'processing')))
    .returning();
  return row;
}

export async function deleteMediaRow(db: DbOrTx, key: string): Promise<void> {
  await db.delete(media).where(eq(media.key, key));
}

/** Which of these keys have a row (the sweeper's question about stored objects). */
export async function existingKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: media.key }).from(media).where(inArray(media.key, keys));
  return new Set(rows.map((r) => r.key));
}

/** Videos still `processing` that were uploaded before `before`. */
export async function processingVideosBefore(db: DbOrTx, before: Date): Promise<string[]> {
  const rows = await db
    .select({ key: media.key })
    .from(media)
    .where(
      and(eq(media.kind, 'video'), eq(media.status, 'processing'), lt(media.createdAt, before)),
    );
  return rows.map((r) => r.key);
}
