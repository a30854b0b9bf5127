import { defineJob, type JobDefinition } from '../../jobs/types';
import { IDENTITY_JOBS, type IdentityService } from './identity.service';

export { IDENTITY_JOBS };

/** Background jobs of the identity review (collected by the composition root). */
export function identityJobs(
  identity: IdentityService,
  log: { info(o: object, m: string): void },
): JobDefinition[] {
  return [
    defineJob<{ submissionId: number }>({
      name: IDENTITY_JOBS.decisionMail,
      retryLimit: 5,
      retryDelaySeconds: 60,
      retryBackoff: true,
      async handler({ submissionId }) {
        await identity.sendDecisionMail(submissionId);
      },
    }),
    {
      // Daily: images of decisions older than 30 days are deleted, the decisions kept.
      name: IDENTITY_JOBS.purgeImages,
      schedule: '27 4 * * *',
      retryLimit: 3,
      retryDelaySeconds: 300,
      async handler() {
        const n = await identity.purgeImages();
        if (n > 0) log.info({ submissions: n }, 'identity images deleted 30 days after decision');
      },
    },
  ];
}
