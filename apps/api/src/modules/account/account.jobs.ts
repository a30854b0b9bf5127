import type { JobDefinition } from '../../jobs/types';
import type { AccountService } from './account.service';

export const ACCOUNT_JOBS = {
  reencrypt: 'account.reencrypt',
  purgeResetCodes: 'account.purge-reset-codes',
} as const;

/** Background jobs of the account feature (collected by the composition root). */
export function accountJobs(account: AccountService, log: { info(o: object, m: string): void }) {
  return [
    {
      name: ACCOUNT_JOBS.reencrypt,
      schedule: '17 3 * * *',
      retryLimit: 3,
      retryDelaySeconds: 300,
      async handler() {
        const n = await account.reencryptStale();
        if (n > 0) log.info({ users: n }, 'sensitive fields re-encrypted with the current key');
      },
    },
    {
      name: ACCOUNT_JOBS.purgeResetCodes,
      schedule: '43 * * * *',
      async handler() {
        const n = await account.purgeOldResetCodes();
        if (n > 0) log.info({ codes: n }, 'old password reset codes purged');
      },
    },
  ] satisfies JobDefinition[];
}
