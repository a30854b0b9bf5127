/**
 * What a media key is and where its files are (CONTRACT.md "Media"). No zod here: the web
 * app's first screens and the inline early script (8 KB cap) load this module; the media
 * feature's schemas, answers and texts are in media.ts.
 */

/** `{MEDIA_URL}{key}{suffix}`: full image, thumbnail (image or video poster), video preview. */
export const MEDIA_SUFFIX = { full: '-f.webp', thumb: '-t.webp', preview: '-p.mp4' } as const;
export type MediaVariant = keyof typeof MEDIA_SUFFIX;

/** Image keys: `i-{id}-{width}x{height}`; video keys: `v-{id}`. */
export const IMAGE_KEY = /^i-[a-z0-9]{20}-\d{1,5}x\d{1,5}$/;
export const VIDEO_KEY = /^v-[a-z0-9]{20}$/;
export const MEDIA_KEY = /^(?:i-[a-z0-9]{20}-\d{1,5}x\d{1,5}|v-[a-z0-9]{20})$/;

/** SPEC.md §2 "Feed rendering": a media key starting with `i-` is an image; anything else a video. */
export function isImageKey(key: string): boolean {
  return key.startsWith('i-');
}

/**
 * The pixel size an image key carries (`i-{id}-{width}x{height}`, written by the media
 * pipeline: the full derivative's size), so a page can reserve the image's box before it
 * loads; null when absent.
 */
export function imageKeySize(key: string): { width: number; height: number } | null {
  const m = /^i-.+-(\d+)x(\d+)$/.exec(key);
  if (!m) return null;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}
