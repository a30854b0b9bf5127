/** GET /hunter/{hunterId}/feed: posts and claims, newest first, paged as the user scrolls. */
import type { FeedItem } from '@bountyhunt/shared/profiles';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiPage } from '../../../lib/api-client';
import { apiPagesOptions } from '../../../lib/query';
import { profileKeys } from './keys';
import { hunterFeedPath, withQuery } from './requests';

/** One page of the feed (`cursor` undefined: the first, as the early script asks for it). */
export const getHunterFeed = (
  hunterId: number | undefined,
  cursor?: string,
  signal?: AbortSignal,
) =>
  apiPage<FeedItem>(
    'GET',
    withQuery(hunterFeedPath(hunterId), { cursor }),
    undefined,
    signal ? { signal } : {},
  );

export const hunterFeedQuery = (hunterId: number | undefined) =>
  apiPagesOptions(profileKeys.feed(hunterId), (cursor, signal) =>
    getHunterFeed(hunterId, cursor, signal),
  );

export function useHunterFeed(hunterId: number | undefined) {
  return useInfiniteQuery({ ...hunterFeedQuery(hunterId), enabled: hunterId !== undefined });
}
