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

/**
 * The pixel size an image key carries (`i-{id}-{width}x{height}`, written by the media
 * pipeline), so a page can reserve the image's box before it loads; null when absent.
 */
export function imageKeySize(key: string): { width: number; height: number } | null {
  const m = /^i-.+-(\d+)x(\d+)$/.exec(key);
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}
