import type { JobDefinition } from '../../jobs/types';

/** Background jobs of the media feature (registered in jobs/registry.ts). */
export const mediaJobs: JobDefinition[] = [];
