/** The hunter's earnings and tax forms (GET /user/earnings, GET /user/tax-forms). */
import type { EarningsAnswer, TaxFormsAnswer } from '@bountyhunt/shared/payouts';
import { apiQueryOptions, useApiQuery } from '../../../lib/query';

export const payoutKeys = {
  all: ['payouts'] as const,
  earnings: () => [...payoutKeys.all, 'earnings'] as const,
  taxForms: () => [...payoutKeys.all, 'tax-forms'] as const,
};

export const useEarnings = () =>
  useApiQuery({
    ...apiQueryOptions<EarningsAnswer>(payoutKeys.earnings(), '/user/earnings'),
    staleTime: 30_000,
  });

export const useTaxForms = () =>
  useApiQuery(apiQueryOptions<TaxFormsAnswer>(payoutKeys.taxForms(), '/user/tax-forms'));
