/**
 * Runtime constants the feed needs, kept free of zod so the home page's JavaScript stays small
 * (issue 3 budget): bounties.ts and media.ts re-export them.
 */

/** Header carrying the next page's cursor of a paged list. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** SPEC.md §2 "Feed rendering": a media key starting with `i-` is an image; anything else a video. */
export function isImageKey(key: string): boolean {
  return key.startsWith('i-');
}
