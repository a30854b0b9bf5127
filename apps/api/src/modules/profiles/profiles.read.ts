/** The profiles module's read interface: the posts table is this module's. */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { posts } from '../../db/schema';

export interface AdminPostRow {
  id: number;
  file: string;
  text: string | null;
  hiddenAt: Date | null;
  createdAt: Date;
}

/** The hunter's newest posts, hidden ones too (the admin console; posts_hunter_feed_idx). */
export function recentPostsOf(
  db: DbOrTx,
  hunterId: number,
  limit: number,
): Promise<AdminPostRow[]> {
  return db
    .select({
      id: posts.id,
      file: posts.file,
      text: posts.text,
      hiddenAt: posts.hiddenAt,
      createdAt: posts.createdAt,
    })
    .from(posts)
    .where(eq(posts.hunterId, hunterId))
    .orderBy(sql`${posts.createdAt} desc nulls last`, sql`${posts.id} desc nulls last`)
    .limit(limit);
}
