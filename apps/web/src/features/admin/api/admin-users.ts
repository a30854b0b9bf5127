/**
 * The console's users: GET /admin/users/{userId}, and the actions on a user (suspend,
 * unsuspend, grant silver, resend mail). Each action refreshes the user's page and the tables
 * (the users list and the audit log show the change).
 */
import type {
  AdminUserDetail,
  GrantSilverValues,
  RefundAnswer,
  RefundInput,
  ResendMailInput,
  SuspendInput,
} from '@bountyhunt/shared/admin-users';
import { useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';
import { adminKeys } from './keys';

export const adminUserQuery = (userId: number) =>
  apiQueryOptions<AdminUserDetail>(adminKeys.user(userId), `/admin/users/${userId}`);

export const useAdminUser = (userId: number, enabled = true) =>
  useApiQuery({ ...adminUserQuery(userId), staleTime: 0, enabled });

function useUserAction<TVars, TData = null>(userId: number, action: string, body = true) {
  const queryClient = useQueryClient();
  return useApiMutation<TVars, TData>('POST', `/admin/users/${userId}/${action}`, {
    body,
    onOk: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.user(userId) }),
        queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'table'] }),
      ]),
  });
}

export const useSuspendUser = (userId: number) => useUserAction<SuspendInput>(userId, 'suspend');
export const useUnsuspendUser = (userId: number) => useUserAction<void>(userId, 'unsuspend', false);
export const useGrantSilver = (userId: number) =>
  useUserAction<GrantSilverValues, { silver: number }>(userId, 'silver');
export const useResendMail = (userId: number) => useUserAction<ResendMailInput>(userId, 'mail');
export const useRefund = (userId: number) =>
  useUserAction<RefundInput, RefundAnswer>(userId, 'refund');
