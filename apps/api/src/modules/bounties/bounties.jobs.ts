import type { JobDefinition } from '../../jobs/types';
import { BountiesService } from './bounties.service';

export const CLOSE_ROUNDS_JOB = 'bounties.close-rounds';

/**
 * Every minute: closes rounds past their end and decides bounties whose last round ended
 * (CONTRACT.md "Bounties and rounds"). Idempotent: each round is closed once, under a row lock.
 */
export const closeRoundsJob: JobDefinition = {
  name: CLOSE_ROUNDS_JOB,
  schedule: '* * * * *',
  retryLimit: 3,
  retryDelaySeconds: 30,
  async handler(ctx) {
    await new BountiesService(ctx).closeDueRounds();
  },
};

export const SETTLE_EARNINGS_JOB = 'bounties.settle-earnings';

/**
 * Every minute: credits hunters with the silver voters spent on their claims (queued by each
 * vote in vote_earnings_pending, so votes never wait on a popular hunter's balance row).
 */
export const settleEarningsJob: JobDefinition = {
  name: SETTLE_EARNINGS_JOB,
  schedule: '* * * * *',
  retryLimit: 3,
  retryDelaySeconds: 30,
  async handler(ctx) {
    await new BountiesService(ctx).settleEarnings();
  },
};

/** Background jobs of the bounties feature (registered in jobs/registry.ts). */
export const bountiesJobs: JobDefinition[] = [closeRoundsJob, settleEarningsJob];
