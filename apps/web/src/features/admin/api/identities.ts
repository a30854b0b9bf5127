/**
 * The identity review: GET /admin/identities/:id (the submission with two signed image links
 * that work for 5 minutes, so the query refreshes them), POST …/approve and …/reject. A
 * decision invalidates the console's queries (the queue, the dashboard's pending count).
 */
import type { IdentityDetailAnswer, IdentityRejectInput } from '@bountyhunt/shared/identity';
import { useQueryClient } from '@tanstack/react-query';
import { apiBaseUrl } from '../../../lib/config';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';
import { adminKeys } from './keys';

export const identityQuery = (id: number) =>
  apiQueryOptions<IdentityDetailAnswer>(adminKeys.identity(id), `/admin/identities/${id}`);

export const useIdentity = (id: number) =>
  useApiQuery({ ...identityQuery(id), staleTime: 0, refetchInterval: 4 * 60_000 });

/** A signed link of the answer (a path on the API) → the address an <img> loads. */
export const signedImageUrl = (path: string) => `${apiBaseUrl()}${path}`;

function useDecision<TVars>(path: (id: number) => string, id: number, body = true) {
  const queryClient = useQueryClient();
  return useApiMutation<TVars, IdentityDetailAnswer>('POST', path(id), {
    body,
    onOk: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useApproveIdentity = (id: number) =>
  useDecision<void>((i) => `/admin/identities/${i}/approve`, id, false);

export const useRejectIdentity = (id: number) =>
  useDecision<IdentityRejectInput>((i) => `/admin/identities/${i}/reject`, id);
