/** GET /hunters: the directory, filtered by handle or stage name, paged as the user scrolls. */
import type { HunterCard } from '@bountyhunt/shared/profiles';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiPage } from '../../../lib/api-client';
import { apiPagesOptions } from '../../../lib/query';
import { profileKeys } from './keys';
import { withQuery } from './requests';

export const getHunters = (q: string, cursor?: string, signal?: AbortSignal) =>
  apiPage<HunterCard>(
    'GET',
    withQuery('/hunters', { q, cursor }),
    undefined,
    signal ? { signal } : {},
  );

export const huntersQuery = (q: string) =>
  apiPagesOptions(profileKeys.directory(q), (cursor, signal) => getHunters(q, cursor, signal));

export const useHunterDirectory = (q: string) => useInfiniteQuery(huntersQuery(q));
