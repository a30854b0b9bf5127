import type { JobDefinition } from '../../jobs/types';
import type { PayoutsService } from './payouts.service';

export const PAYOUT_WEEKLY_JOB = 'payouts.weekly-run';
export const RELEASE_EARNINGS_JOB = 'payouts.release-earnings';
export const TAX_FORMS_JOB = 'payouts.tax-forms';

/** Background jobs of payouts (collected by the composition root). Scheduled jobs are exclusive. */
export function payoutsJobs(payouts: PayoutsService, schedule: string): JobDefinition[] {
  return [
    {
      // Weekly (PAYOUT_SCHEDULE, Mondays 09:00 UTC by default): pays every qualifying hunter.
      // Once per week even with several instances: the week's batch row is unique.
      name: PAYOUT_WEEKLY_JOB,
      schedule,
      retryLimit: 5,
      retryDelaySeconds: 300,
      handler: async () => {
        await payouts.runScheduled();
      },
    },
    {
      // Hourly: earnings past their hold become available.
      name: RELEASE_EARNINGS_JOB,
      schedule: '17 * * * *',
      retryLimit: 3,
      retryDelaySeconds: 120,
      handler: async () => {
        await payouts.releaseDue();
      },
    },
    {
      // January 2nd: last year's Forms 1099-NEC (recipients must have them by January 31).
      name: TAX_FORMS_JOB,
      schedule: '0 6 2 1 *',
      retryLimit: 5,
      retryDelaySeconds: 600,
      handler: async () => {
        await payouts.generateLastYear();
      },
    },
  ];
}
