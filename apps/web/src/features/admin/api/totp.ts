/**
 * The second factor: GET /admin/totp/status, POST /admin/totp/enrol, /confirm and /verify.
 * A confirmed or verified code marks this session; every admin query is then asked again.
 */
import type { TotpEnrolAnswer, TotpStatusAnswer, TotpVerifyInput } from '@bountyhunt/shared/admin';
import { useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';
import { adminKeys } from './keys';

export const totpStatusQuery = () =>
  apiQueryOptions<TotpStatusAnswer>(adminKeys.totpStatus(), '/admin/totp/status');

export const useTotpStatus = () => useApiQuery({ ...totpStatusQuery(), staleTime: 0 });

export const useEnrol = () =>
  useApiMutation<void, TotpEnrolAnswer>('POST', '/admin/totp/enrol', { body: false });

function usePassed<TVars>(path: string) {
  const queryClient = useQueryClient();
  return useApiMutation<TVars, null>('POST', path, {
    onOk: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useConfirmCode = () => usePassed<{ code: string }>('/admin/totp/confirm');
export const useVerifyCode = () => usePassed<TotpVerifyInput>('/admin/totp/verify');
