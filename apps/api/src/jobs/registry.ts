/** Every job the worker knows: each feature owns its list in modules/<feature>/<feature>.jobs.ts. */
import { accountJobs } from '../modules/account/account.jobs';
import { billingJobs } from '../modules/billing/billing.jobs';
import { bountiesJobs } from '../modules/bounties/bounties.jobs';
import { mediaJobs } from '../modules/media/media.jobs';
import { profilesJobs } from '../modules/profiles/profiles.jobs';
import type { JobDefinition } from './types';

export const jobDefinitions: JobDefinition[] = [
  ...mediaJobs,
  ...accountJobs,
  ...billingJobs,
  ...bountiesJobs,
  ...profilesJobs,
] as JobDefinition[];
