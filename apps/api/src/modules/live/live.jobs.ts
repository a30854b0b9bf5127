/** The live module's background job: old stream events and expired tickets go (issue 19). */
import { defineJob, type JobDefinition } from '../../jobs/types';
import type { LiveService } from './live.service';

export function liveJobs(live: LiveService): JobDefinition[] {
  return [
    defineJob({
      name: 'live.prune',
      schedule: '17 3 * * *',
      handler: async () => {
        await live.prune();
      },
    }),
  ];
}
