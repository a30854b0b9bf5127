/** The only code that touches the media table. */
import { eq } from 'drizzle-orm';
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

export async function deleteMediaRow(db: DbOrTx, key: string): Promise<void> {
  await db.delete(media).where(eq(media.key, key));
}
