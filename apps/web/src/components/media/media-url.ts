/**
 * Where media files live (CONTRACT.md "Media"): `{MEDIA_URL}{key}{suffix}`, MEDIA_URL being the
 * API address + /media/ unless configured.
 */
import { isImageKey, MEDIA_SUFFIX, type MediaVariant } from '@bountyhunt/shared/media-keys';
import { mediaBaseUrl } from '../../lib/config';

export function mediaUrl(key: string, variant: MediaVariant): string {
  return `${mediaBaseUrl()}${encodeURIComponent(key)}${MEDIA_SUFFIX[variant]}`;
}

/** SPEC.md §2 "Feed rendering": `i-` keys are images (thumbnail), others mp4 previews. */
export function feedMedia(key: string): { kind: 'image' | 'video'; src: string; poster?: string } {
  return isImageKey(key)
    ? { kind: 'image', src: mediaUrl(key, 'thumb') }
    : { kind: 'video', src: mediaUrl(key, 'preview'), poster: mediaUrl(key, 'thumb') };
}

/** SPEC.md §2: banner and picture default to a blank image (1×1 transparent GIF). */
export const BLANK_IMAGE =
  'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
