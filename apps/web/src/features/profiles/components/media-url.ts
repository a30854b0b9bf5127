/** Media file locations of SPEC.md §2 "Feed rendering" and "Profile page" (no React here). */
import { mediaBaseUrl } from '../../../lib/config';

export const isImageKey = (key: string) => key.startsWith('i-');
export const mediaUrl = (key: string, suffix: '-t.webp' | '-f.webp' | '-p.mp4') =>
  `${mediaBaseUrl()}${encodeURIComponent(key)}${suffix}`;
