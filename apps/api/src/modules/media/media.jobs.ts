import { defineJob, type JobDefinition } from '../../jobs/types';
import { SWEEP_JOB, VIDEO_PREVIEW_JOB, type MediaService } from './media.service';

/** Background jobs of the media feature (collected by the composition root). */
export function mediaJobs(media: MediaService): JobDefinition[] {
  return [
    defineJob<{ key: string; seconds?: number }>({
      name: VIDEO_PREVIEW_JOB,
      handler: (payload, info) =>
        media.processVideo(payload.key, {
          lastAttempt: info.lastAttempt,
          ...(typeof payload.seconds === 'number' ? { seconds: payload.seconds } : {}),
        }),
      // One job per media key in flight (sent with singletonKey = key), never two at once.
      policy: 'exclusive',
      retryLimit: 4,
      retryDelaySeconds: 10,
      retryBackoff: true,
      expireInSeconds: 20 * 60,
    }),
    defineJob({
      name: SWEEP_JOB,
      handler: async () => {
        await media.sweep();
        await media.cleanTmp();
      },
      schedule: '41 * * * *',
      // What a killed instance left is cleaned when it (or another) starts again.
      runAtStart: true,
      // And once more when what it wrote just before dying is past the grace period.
      runAfterStartSeconds: media.sweepGraceSeconds + 1,
      retryLimit: 2,
    }),
  ];
}
