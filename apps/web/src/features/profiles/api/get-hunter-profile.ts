/** GET /hunter/handle/{handle}: the hunter with post, claim and vote counts (404 unknown). */
import type { HunterProfile } from '@bountyhunt/shared/profiles';
import { apiQueryOptions, useApiQuery } from '../../../lib/query';
import { profileKeys } from './keys';
import { hunterProfilePath } from './requests';

export const hunterProfileQuery = (handle: string) =>
  apiQueryOptions<HunterProfile>(profileKeys.hunter(handle), hunterProfilePath(handle));

export function useHunterProfile(handle: string | null) {
  return useApiQuery<HunterProfile>({ ...hunterProfileQuery(handle ?? ''), enabled: !!handle });
}
