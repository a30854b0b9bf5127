/** GET /media/{key}/status, polled while a video is being processed. */
import { MEDIA_MSG, type MediaStatusAnswer } from '@bountyhunt/shared/media';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { apiQueryOptions, useApiQuery } from '../../lib/query';
import type { MediaProcessing } from './media-view';

export const POLL_MS = 2000;

export function mediaStatusQuery(key: string) {
  return apiQueryOptions<MediaStatusAnswer>(
    ['media-status', key],
    `/media/${encodeURIComponent(key)}/status`,
  );
}

/** Images are ready when their upload answers; videos are polled until ready or failed. */
export function useMediaStatus(key: string | null | undefined) {
  const enabled = !!key && !isImageKey(key);
  return useApiQuery<MediaStatusAnswer>({
    ...mediaStatusQuery(key ?? ''),
    enabled,
    staleTime: 0,
    refetchInterval: (q) => {
      const res = q.state.data;
      if (!res) return POLL_MS;
      if (res.status === 200 && res.data.status !== 'processing') return false;
      if (res.status === 404) return false;
      return POLL_MS;
    },
  });
}

/**
 * What `<MediaView processing>` shows for an uploaded key: images are ready at once; a video
 * is "Processing…" until the server has made its preview, or says why it could not.
 */
export function useMediaProcessing(key: string | null | undefined): MediaProcessing {
  const { data: res } = useMediaStatus(key);
  if (!key || isImageKey(key)) return { status: 'ready', message: '' };
  if (!res) return { status: 'processing', message: MEDIA_MSG.processing };
  if (res.status === 200 && res.data.status === 'ready') return { status: 'ready', message: '' };
  if (res.status === 200 && res.data.status === 'processing')
    return { status: 'processing', message: MEDIA_MSG.processing };
  return {
    status: 'failed',
    message: (res.status === 200 && res.data.error) || MEDIA_MSG.mediaFailed,
  };
}
