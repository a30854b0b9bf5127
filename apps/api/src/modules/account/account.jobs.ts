import type { ServiceContext } from '../../context';
import type { JobDefinition } from '../../jobs/types';
import { type FieldCipher, loadFieldCipher } from '../../lib/crypto';
import { findStaleCiphertexts, purgeResetCodes, replaceCiphertexts } from './account.repository';

export const ACCOUNT_JOBS = {
  reencrypt: 'account.reencrypt',
  purgeResetCodes: 'account.purge-reset-codes',
} as const;

/**
 * Re-encrypts SSNs and bank account numbers made with an earlier key (ENCRYPTION_KEY_PREVIOUS)
 * under the current ENCRYPTION_KEY, in batches. Returns how many users were rewritten.
 */
export async function reencryptStale(
  ctx: ServiceContext,
  cipher: FieldCipher = loadFieldCipher(ctx.config),
  batch = 200,
): Promise<number> {
  let done = 0;
  let skipped = new Set<number>();
  for (;;) {
    const rows = (
      await findStaleCiphertexts(ctx.db, cipher.currentKeyId, batch + skipped.size)
    ).filter((r) => !skipped.has(r.id));
    if (rows.length === 0) return done;
    for (const row of rows) {
      try {
        const next = {
          ssnEnc:
            row.ssnEnc && cipher.isStale(row.ssnEnc)
              ? cipher.encrypt(cipher.decrypt(row.ssnEnc))
              : row.ssnEnc,
          bankAccountEnc:
            row.bankAccountEnc && cipher.isStale(row.bankAccountEnc)
              ? cipher.encrypt(cipher.decrypt(row.bankAccountEnc))
              : row.bankAccountEnc,
        };
        if (await replaceCiphertexts(ctx.db, row.id, row, next)) done += 1;
      } catch (err) {
        // A key that is no longer configured: leave the row, say so, go on with the others.
        ctx.log.error(
          { userId: row.id, err: { message: (err as Error).message } },
          're-encryption failed',
        );
        skipped = new Set([...skipped, row.id]);
      }
    }
  }
}

/** Background jobs of the account feature (registered in jobs/registry.ts). */
export const accountJobs: JobDefinition[] = [
  {
    name: ACCOUNT_JOBS.reencrypt,
    schedule: '17 3 * * *',
    retryLimit: 3,
    retryDelaySeconds: 300,
    async handler(ctx) {
      const n = await reencryptStale(ctx);
      if (n > 0) ctx.log.info({ users: n }, 'sensitive fields re-encrypted with the current key');
    },
  },
  {
    name: ACCOUNT_JOBS.purgeResetCodes,
    schedule: '43 * * * *',
    async handler(ctx) {
      const before = new Date(ctx.clock.now().getTime() - 24 * 3600 * 1000);
      const n = await purgeResetCodes(ctx.db, before);
      if (n > 0) ctx.log.info({ codes: n }, 'old password reset codes purged');
    },
  },
];
