/**
 * The edit page's save (SPEC.md §7 account endpoints): PUT /user/handle, /hunter/stagename,
 * /hunter/bio, /hunter/picture and /hunter/banner, one after the other, only what changed,
 * stopping at the first refusal. When all succeed, the cached profiles are asked again.
 */
import type { BannerInput, Hunter } from '@bountyhunt/shared/profiles';
import type { bioSchema, handleSchema, stagenameSchema } from '@bountyhunt/shared/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest, type ApiResult } from '../../../lib/api-client';
import { profileKeys } from './keys';

export type ProfileChanges = Partial<
  z.infer<typeof handleSchema> &
    z.infer<typeof stagenameSchema> &
    z.infer<typeof bioSchema> &
    BannerInput & { picture: string }
>;
export type ProfileField = keyof ProfileChanges;

/** Empty stage name and biography are sent as the text null (SPEC.md §5). */
const CALLS: { [F in ProfileField]-?: (v: ProfileChanges[F]) => Promise<ApiResult<unknown>> } = {
  handle: (handle) => apiRequest('PUT', '/user/handle', { handle }),
  stagename: (stagename) =>
    apiRequest<Hunter>('PUT', '/hunter/stagename', { stagename: stagename ?? 'null' }),
  bio: (bio) => apiRequest<Hunter>('PUT', '/hunter/bio', { bio: bio ?? 'null' }),
  picture: (picture) => apiRequest<Hunter>('PUT', '/hunter/picture', { picture }),
  banner: (banner) => apiRequest<Hunter>('PUT', '/hunter/banner', { banner }),
};
const ORDER: ProfileField[] = ['handle', 'stagename', 'bio', 'picture', 'banner'];

/** The first refused change and its status, or null when every change was saved. */
export async function updateProfile(
  changes: ProfileChanges,
): Promise<{ field: ProfileField; status: number } | null> {
  for (const field of ORDER) {
    if (!(field in changes)) continue;
    const res = await (CALLS[field] as (v: unknown) => Promise<ApiResult<unknown>>)(changes[field]);
    if (res.status !== 200) return { field, status: res.status };
  }
  return null;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (failed) =>
      failed ? undefined : queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
