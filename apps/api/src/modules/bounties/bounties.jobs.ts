import type { JobDefinition } from '../../jobs/types';

/** Background jobs of the bounties feature (registered in jobs/registry.ts). */
export const bountiesJobs: JobDefinition[] = [];
