import type { JobDefinition } from '../../jobs/types';
import type { BountiesService } from './bounties.service';

export const CLOSE_ROUNDS_JOB = 'bounties.close-rounds';
export const SETTLE_EARNINGS_JOB = 'bounties.settle-earnings';

/** Background jobs of the bounties feature (collected by the composition root). */
export function bountiesJobs(bounties: BountiesService): JobDefinition[] {
  return [
    {
      // Every minute: closes rounds past their end and decides bounties whose last round ended
      // (CONTRACT.md "Bounties and rounds"). Idempotent: each round is closed once, under a row lock.
      name: CLOSE_ROUNDS_JOB,
      schedule: '* * * * *',
      retryLimit: 3,
      retryDelaySeconds: 30,
      handler: async () => {
        await bounties.closeDueRounds();
      },
    },
    {
      // Every minute: credits hunters with the silver voters spent on their claims (queued by
      // each vote in vote_earnings_pending, so votes never wait on a popular hunter's row).
      name: SETTLE_EARNINGS_JOB,
      schedule: '* * * * *',
      retryLimit: 3,
      retryDelaySeconds: 30,
      handler: async () => {
        await bounties.settleEarnings();
      },
    },
  ];
}
