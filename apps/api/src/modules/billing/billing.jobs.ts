import type { JobDefinition } from '../../jobs/types';

/** Background jobs of the billing feature (registered in jobs/registry.ts). */
export const billingJobs: JobDefinition[] = [];
