/** The profiles feature's calls (SPEC.md §7), one hook per endpoint. */
import type {
  FeedItem,
  Hunter,
  HunterCard,
  HunterProfile,
  Post,
  PostCreateInput,
} from '@bountyhunt/shared/profiles';
import { apiRequest, type ApiResult } from '../../../lib/api-client';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';
import { useInfiniteQuery } from '@tanstack/react-query';
import { pagedListOptions, usePagedList } from './paged';
import { hunterFeedPath, hunterProfilePath } from './requests';

export const profileKey = (handle: string) => ['profiles', 'hunter', handle.toLowerCase()];

/** GET /hunter/handle/{handle}: the hunter with post, claim and vote counts (404 unknown). */
export const hunterProfileQuery = (handle: string) =>
  apiQueryOptions<HunterProfile>(profileKey(handle), hunterProfilePath(handle));

export function useHunterProfile(handle: string | null) {
  return useApiQuery<HunterProfile>({ ...hunterProfileQuery(handle ?? ''), enabled: !!handle });
}

/** GET /hunter/{hunterId}/feed: posts and claims, newest first, paged as the user scrolls. */
export const hunterFeedQuery = (hunterId: number | undefined) =>
  pagedListOptions<FeedItem>(['profiles', 'feed', hunterId], hunterFeedPath(hunterId));

export function useHunterFeed(hunterId: number | undefined) {
  return useInfiniteQuery({ ...hunterFeedQuery(hunterId), enabled: hunterId !== undefined });
}

/** GET /hunters: the directory, filtered by handle or stage name. */
export function useHunterDirectory(q: string) {
  return usePagedList<HunterCard>(['profiles', 'directory'], '/hunters', { q: q || undefined });
}

/** POST /post */
export function useCreatePost() {
  return useApiMutation<PostCreateInput, Post>('POST', '/post');
}

/** PUT /hunter/banner */
export function useSetBanner() {
  return useApiMutation<{ banner: string }, Hunter>('PUT', '/hunter/banner');
}

/** The account endpoints the edit page uses (SPEC.md §7; owned by the accounts feature). */
export const accountCalls = {
  handle: (handle: string) => apiRequest('PUT', '/user/handle', { handle }),
  stagename: (stagename: string | null) =>
    apiRequest<Hunter>('PUT', '/hunter/stagename', { stagename: stagename ?? 'null' }),
  bio: (bio: string | null) => apiRequest<Hunter>('PUT', '/hunter/bio', { bio: bio ?? 'null' }),
  picture: (picture: string) => apiRequest<Hunter>('PUT', '/hunter/picture', { picture }),
  banner: (banner: string) => apiRequest<Hunter>('PUT', '/hunter/banner', { banner }),
};

export type MediaKind = 'image' | 'video';

/** POST /media/image or /media/video with the file's bytes; resolves with `{key}`. */
export function uploadMedia(
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<ApiResult<{ key: string }>> {
  const kind: MediaKind = file.type.startsWith('video/') ? 'video' : 'image';
  return apiRequest<{ key: string }>('POST', `/media/${kind}`, undefined, {
    raw: file,
    onProgress,
    timeoutMs: 10 * 60_000,
  });
}
