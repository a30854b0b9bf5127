/** GET /user/silver: the silver balance and its newest entries (`before`: older ones). */
import type { SilverAnswer } from '@bountyhunt/shared/billing';
import { apiQueryOptions, useApiQuery } from '../../../lib/query';
import { billingKeys } from './keys';

export const silverQuery = (before?: number) =>
  apiQueryOptions<SilverAnswer>(
    billingKeys.silver(before),
    `/user/silver${before ? `?before=${before}` : ''}`,
  );

export const useSilver = (before?: number) => useApiQuery(silverQuery(before));
