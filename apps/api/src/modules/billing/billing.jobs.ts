import type { JobDefinition } from '../../jobs/types';
import { BillingService, RENEW_JOB } from './billing.service';

/**
 * Background jobs of the billing feature (registered in jobs/registry.ts).
 * Renewals run every 15 minutes; each due member is charged once per attempt (see
 * billing.service.ts), so an overlapping or repeated run is harmless.
 */
export const renewMembershipsJob: JobDefinition = {
  name: RENEW_JOB,
  schedule: '*/15 * * * *',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  async handler(ctx) {
    await new BillingService(ctx).renewDue();
  },
};

export const billingJobs: JobDefinition[] = [renewMembershipsJob];
