/** POST /admin/reports/{type}/{id}/hide|keep: closes the item's open reports; the queue reloads. */
import type { ReportDecision, ReportTarget } from '@bountyhunt/shared/moderation';
import { useQueryClient } from '@tanstack/react-query';
import { useApiMutation } from '../../../lib/query';
import { adminKeys } from './keys';

export interface DecideVars {
  targetType: ReportTarget;
  targetId: number;
  decision: 'hide' | 'keep';
}

export function useDecideReport() {
  const queryClient = useQueryClient();
  return useApiMutation<DecideVars, ReportDecision>(
    'POST',
    (v) => `/admin/reports/${v.targetType}/${v.targetId}/${v.decision}`,
    {
      body: false,
      onOk: () => {
        void queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'table'] });
        void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() });
      },
    },
  );
}
