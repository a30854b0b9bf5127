/**
 * The console's payouts and tax forms: the next run's preview, run now, a run's payouts and
 * file, marking a payout returned, and the year's 1099-NEC forms. Every action refreshes the
 * console's queries (the tables, the dashboard, the audit log).
 */
import type {
  AdminTaxFormsAnswer,
  PayoutBatchDetailAnswer,
  PayoutBatchItem,
  PayoutItem,
  PayoutPreviewAnswer,
  PayoutReturnInput,
} from '@bountyhunt/shared/payouts';
import { useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';
import { adminKeys } from './keys';

export const usePayoutPreview = () =>
  useApiQuery({
    ...apiQueryOptions<PayoutPreviewAnswer>(adminKeys.payoutPreview(), '/admin/payouts/preview'),
    staleTime: 0,
  });

export const usePayoutBatch = (batchId: number, enabled = true) =>
  useApiQuery({
    ...apiQueryOptions<PayoutBatchDetailAnswer>(
      adminKeys.payoutBatch(batchId),
      `/admin/payouts/batches/${batchId}`,
    ),
    staleTime: 0,
    enabled,
  });

export const useAdminTaxForms = (year: number) =>
  useApiQuery({
    ...apiQueryOptions<AdminTaxFormsAnswer>(adminKeys.taxForms(year), `/admin/tax-forms/${year}`),
    staleTime: 0,
  });

function useConsoleAction<TVars, TData>(path: string | ((v: TVars) => string), body: boolean) {
  const queryClient = useQueryClient();
  return useApiMutation<TVars, TData>('POST', path, {
    body,
    onOk: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const useRunPayouts = () =>
  useConsoleAction<void, PayoutBatchItem>('/admin/payouts/run', false);

export const useReturnPayout = () =>
  useConsoleAction<PayoutReturnInput & { payoutId: number }, PayoutItem>(
    (v) => `/admin/payouts/${v.payoutId}/return`,
    true,
  );

export const useGenerateTaxForms = (year: number) =>
  useConsoleAction<void, { year: number; count: number }>(
    `/admin/tax-forms/${year}/generate`,
    false,
  );
