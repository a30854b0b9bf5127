/**
 * Uploads (CONTRACT.md "Media"): accepted types, the key schema, answers and texts, for the
 * API and the web app. The key format and its suffixes are in media-keys.ts (zod-free).
 */
import { z } from 'zod';
import { MEDIA_KEY } from './media-keys';

export const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
/** What the upload component's file picker offers. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',');
export const VIDEO_ACCEPT = VIDEO_TYPES.join(',');

export const mediaKeySchema = z.string().regex(MEDIA_KEY, 'Unknown media key.');
export const uploadAnswer = z.object({ key: z.string() });
export type UploadAnswer = z.infer<typeof uploadAnswer>;

export const MEDIA_STATUS = ['processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUS)[number];

export const mediaStatusAnswer = z.object({
  key: z.string(),
  kind: z.enum(['image', 'video']),
  status: z.enum(MEDIA_STATUS),
  /** Why processing failed, in words a user can read. */
  error: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type MediaStatusAnswer = z.infer<typeof mediaStatusAnswer>;

export const MEDIA_MSG = {
  imageType: 'Unsupported file type. Please upload a JPEG, PNG, WebP, GIF or AVIF image.',
  videoType: 'Unsupported file type. Please upload an MP4, MOV or WebM video.',
  mismatch: "The file's contents do not match its declared type.",
  empty: 'The file is empty.',
  imageTooBig: (mb: number) => `The image is too large. Images may be at most ${mb} MB.`,
  videoTooBig: (mb: number) => `The video is too large. Videos may be at most ${mb} MB.`,
  unreadableImage: 'The file is not a readable image.',
  unreadableVideo: 'The file is not a readable video.',
  videoUnavailable:
    'Video uploads are unavailable right now because video processing is not installed on the server. Images still work.',
  mediaUnknown: 'Unknown media. Please upload the file again.',
  mediaFailed: 'This media could not be processed. Please upload another file.',
  mediaNotImage: 'Please choose an image.',
  processing: 'Processing…',
  storageUnavailable:
    'Uploads are briefly unavailable because file storage cannot be reached. Please try again in a minute.',
} as const;
