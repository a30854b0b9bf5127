/** GET /media/{key}/status, polled while a video is being processed. */
import type { MediaStatusAnswer } from '@bountyhunt/shared/media';
import { isImageKey } from '@bountyhunt/shared/media-keys';
import { apiQueryOptions, useApiQuery } from '../../lib/query';

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
