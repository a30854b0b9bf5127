/** Key rotation end to end: rows written under an old key are re-encrypted by the job. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { loadConfig } from '../../env';
import { FieldCipher } from '../../lib/crypto';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { accountJobs, ACCOUNT_JOBS, reencryptStale } from './account.jobs';

const oldKey = crypto.randomBytes(32).toString('base64');
const newKey = crypto.randomBytes(32).toString('base64');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ENCRYPTION_KEY: oldKey, RL_REGISTER_IP: '1000/3600' } });
});
afterAll(() => t.close());

describe('re-encryption job', () => {
  it('moves SSNs and account numbers from the previous key to the current one', async () => {
    const h = await signUp(t.app, { hunter: true });
    await t.app.inject({ method: 'PUT', url: '/user/ssn/111223333', headers: h.auth });
    await t.app.inject({
      method: 'PUT',
      url: '/user/bank',
      headers: h.auth,
      payload: { name: 'B', routingNumber: '011000015', accountNumber: '99887766' },
    });
    const before = (await t.app.ctx.db.select().from(users).where(eq(users.id, h.userId)))[0]!;

    const config = loadConfig({
      ...process.env,
      DATABASE_URL: 'memory://',
      DATA_DIR: t.config.dataDir,
      ENCRYPTION_KEY: newKey,
      ENCRYPTION_KEY_PREVIOUS: oldKey,
    });
    const ctx = { ...t.app.ctx, config };
    const rotated = new FieldCipher(newKey, [oldKey]);
    expect(rotated.isStale(before.ssnEnc!)).toBe(true);

    expect(await reencryptStale(ctx, rotated)).toBe(1);
    const after = (await t.app.ctx.db.select().from(users).where(eq(users.id, h.userId)))[0]!;
    expect(rotated.isStale(after.ssnEnc!)).toBe(false);
    expect(rotated.isStale(after.bankAccountEnc!)).toBe(false);
    expect(new FieldCipher(newKey).decrypt(after.ssnEnc!)).toBe('111223333');
    expect(new FieldCipher(newKey).decrypt(after.bankAccountEnc!)).toBe('99887766');
    expect(after.ssnLastFour).toBe('3333');

    // Nothing left: a second run rewrites nothing, and the scheduled job runs cleanly.
    expect(await reencryptStale(ctx, rotated)).toBe(0);
    const job = accountJobs.find((j) => j.name === ACCOUNT_JOBS.reencrypt)!;
    await job.handler(ctx, {});
  });

  it('leaves rows whose key is gone and reports them, without stopping', async () => {
    const h = await signUp(t.app, { hunter: true });
    await t.app.inject({ method: 'PUT', url: '/user/ssn/444556666', headers: h.auth });
    const stranger = new FieldCipher(crypto.randomBytes(32).toString('base64'));
    expect(await reencryptStale({ ...t.app.ctx }, stranger)).toBe(0);
    expect(t.logs.join('')).toContain('re-encryption failed');
    expect(t.logs.join('')).not.toContain('444556666');
  });
});
