/**
 * Where media files live (CONTRACT.md "Media"): `{MEDIA_URL}{key}{suffix}`, MEDIA_URL being the
 * API address + /media/ unless configured. The one media URL helper of the web app: feeds,
 * profiles, uploads and index.html's early script (so: no zod, no React here).
 */
import {
  type MEDIA_SUFFIX as SHARED_MEDIA_SUFFIX,
  type MediaVariant,
} from '@bountyhunt/shared/media-keys';
import { mediaBaseUrl } from '../../lib/config';

// The values of @bountyhunt/shared/media's MEDIA_SUFFIX (checked by the type), without that
// module's zod schemas, which would otherwise join the early script and the first page.
const MEDIA_SUFFIX = {
  full: '-f.webp',
  thumb: '-t.webp',
  preview: '-p.mp4',
} as const satisfies typeof SHARED_MEDIA_SUFFIX;

export function mediaUrl(key: string, variant: MediaVariant): string {
  return `${mediaBaseUrl()}${encodeURIComponent(key)}${MEDIA_SUFFIX[variant]}`;
}
