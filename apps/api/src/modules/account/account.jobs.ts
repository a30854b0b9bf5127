import type { JobDefinition } from '../../jobs/types';

/** Background jobs of the account feature (registered in jobs/registry.ts). */
export const accountJobs: JobDefinition[] = [];
