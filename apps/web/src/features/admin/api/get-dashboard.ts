/** GET /admin/dashboard: the operations counts. */
import type { DashboardAnswer } from '@bountyhunt/shared/admin';
import { apiQueryOptions, useApiQuery } from '../../../lib/query';
import { adminKeys } from './keys';

export const useDashboard = () =>
  useApiQuery({
    ...apiQueryOptions<DashboardAnswer>(adminKeys.dashboard(), '/admin/dashboard'),
    refetchInterval: 30_000,
  });
