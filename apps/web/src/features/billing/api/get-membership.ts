/** GET /user/membership: plan, status, next charge and the card on file. */
import type { MembershipAnswer } from '@bountyhunt/shared/billing';
import { apiQueryOptions, useApiQuery } from '../../../lib/query';
import { billingKeys } from './keys';

export const membershipQuery = () =>
  apiQueryOptions<MembershipAnswer>(billingKeys.membership(), '/user/membership');

export const useMembership = () => useApiQuery(membershipQuery());
