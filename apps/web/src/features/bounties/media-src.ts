/** Where a claim's media files are (CONTRACT.md "Media"): `{MEDIA_URL}{key}{suffix}`. */
import { mediaBaseUrl } from '../../lib/config';

export const mediaSrc = {
  thumb: (key: string) => `${mediaBaseUrl()}${key}-t.webp`,
  full: (key: string) => `${mediaBaseUrl()}${key}-f.webp`,
  preview: (key: string) => `${mediaBaseUrl()}${key}-p.mp4`,
};
