/** The billing endpoints (SPEC.md §7 and GET /user/membership, GET /user/silver). */
import type { User } from '@bountyhunt/shared/users';
import type { MembershipAnswer, SilverAnswer } from '@bountyhunt/shared/billing';
import { useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, useApiMutation, useApiQuery } from '../../../lib/query';

/** The card form as the API takes it: number without spaces, month and year as typed. */
export interface CardBody {
  number: string;
  cvv: string;
  month: string;
  year: string;
  name: string;
  zip: string;
}

export const membershipQuery = () =>
  apiQueryOptions<MembershipAnswer>(['billing', 'membership'], '/user/membership');
export const useMembership = () => useApiQuery(membershipQuery());

export const useSilver = (before?: number) =>
  useApiQuery(
    apiQueryOptions<SilverAnswer>(
      ['billing', 'silver', before ?? 'first'],
      `/user/silver${before ? `?before=${before}` : ''}`,
    ),
  );

/** PUT /user/membership/{planIndex} → 200 with the user. */
export const useChoosePlan = () =>
  useApiMutation<{ planIndex: number }, User>('PUT', (v) => `/user/membership/${v.planIndex}`, {
    body: false,
  });

/** POST /user/membership → 200 with the user (charged, active one month ahead, silver credited). */
export const useStartMembership = () => useApiMutation<CardBody, User>('POST', '/user/membership');

/** PUT /user/card → 204. */
export const useReplaceCard = () => useApiMutation<CardBody, null>('PUT', '/user/card');

/** Forget cached billing answers after a change. */
export function useInvalidateBilling() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: ['billing'] });
}
