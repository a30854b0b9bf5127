/**
 * POST /media/image, /media/video or /media/identity with the file's raw bytes (CONTRACT.md
 * "Media") → `{key}`. The one upload call of the web app (claims, posts, pictures, identity
 * documents and the upload component).
 */
import type { UploadAnswer } from '@bountyhunt/shared/media';
import { apiRequest, type ApiResult } from './api-client';

export type UploadTarget = 'image' | 'video' | 'identity';

export function uploadMedia(
  file: File,
  opts: {
    /** Default: by the file's type, video/* to /media/video, anything else to /media/image. */
    to?: UploadTarget;
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal;
    timeoutMs?: number;
  } = {},
): Promise<ApiResult<UploadAnswer>> {
  const to = opts.to ?? (file.type.startsWith('video/') ? 'video' : 'image');
  return apiRequest<UploadAnswer>('POST', `/media/${to}`, undefined, {
    raw: file,
    timeoutMs: opts.timeoutMs ?? 10 * 60_000,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}
