import type { JobDefinition } from '../../jobs/types';
import { processVideo, VIDEO_PREVIEW_JOB } from './media.service';

/** Background jobs of the media feature (registered in jobs/registry.ts). */
export const mediaJobs: JobDefinition[] = [
  {
    name: VIDEO_PREVIEW_JOB,
    handler: (ctx, payload, info) =>
      processVideo(ctx, (payload as { key: string }).key, { lastAttempt: info?.lastAttempt }),
    // One job per media key in flight (sent with singletonKey = key), never two at once.
    policy: 'exclusive',
    retryLimit: 4,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 20 * 60,
  } satisfies JobDefinition<{ key: string }> as JobDefinition,
];
