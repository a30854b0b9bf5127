import type { JobDefinition } from '../../jobs/types';

/** Background jobs of the profiles feature (registered in jobs/registry.ts). */
export const profilesJobs: JobDefinition[] = [];
