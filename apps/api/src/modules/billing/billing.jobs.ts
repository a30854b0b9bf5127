import type { JobDefinition } from '../../jobs/types';
import { RENEW_JOB } from './membership-terms';
import type { RenewalService } from './renewal.service';

/**
 * Background jobs of the billing feature (collected by the composition root).
 * Renewals run every 15 minutes; each due member is charged once per attempt (see
 * renewal.service.ts), so an overlapping or repeated run is harmless.
 */
export function billingJobs(renewal: RenewalService): JobDefinition[] {
  return [
    {
      name: RENEW_JOB,
      schedule: '*/15 * * * *',
      retryLimit: 3,
      retryDelaySeconds: 60,
      retryBackoff: true,
      handler: async () => {
        await renewal.renewDue();
      },
    },
  ];
}
