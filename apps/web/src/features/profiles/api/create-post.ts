/** POST /post: a hunter's post (media and text); the profiles then show it. */
import type { Post, PostCreateInput } from '@bountyhunt/shared/profiles';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../../lib/query';
import { profileKeys } from './keys';

export function useCreatePost() {
  const queryClient = useQueryClient();
  return useApiMutation<PostCreateInput, Post>('POST', '/post', {
    // Awaited: the profile page the author goes to next shows the new post.
    onOk: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
