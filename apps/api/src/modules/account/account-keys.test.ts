/** Key rotation end to end: rows written under an old key are re-encrypted by the job. */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { loadConfig } from '../../env';
import { FieldCipher } from '../../lib/crypto';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';
import { ACCOUNT_JOBS } from './account.jobs';
import { AccountService } from './account.service';

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
    const before = (await t.app.root.ctx.db.select().from(users).where(eq(users.id, h.userId)))[0]!;

    const config = loadConfig({
      ...process.env,
      DATABASE_URL: 'memory://',
      DATA_DIR: t.config.dataDir,
      ENCRYPTION_KEY: newKey,
      ENCRYPTION_KEY_PREVIOUS: oldKey,
    });
    const ctx = { ...t.app.root.ctx, config };
    const rotated = new FieldCipher(newKey, [oldKey]);
    // The same service the root builds, given the rotated keys (as a restart with them would).
    const account = new AccountService(ctx, rotated, t.root.services.users, t.root.services.auth);
    expect(rotated.isStale(before.ssnEnc!)).toBe(true);

    expect(await account.reencryptStale()).toBe(1);
    const after = (await t.app.root.ctx.db.select().from(users).where(eq(users.id, h.userId)))[0]!;
    expect(rotated.isStale(after.ssnEnc!)).toBe(false);
    expect(rotated.isStale(after.bankAccountEnc!)).toBe(false);
    expect(new FieldCipher(newKey).decrypt(after.ssnEnc!)).toBe('111223333');
    expect(new FieldCipher(newKey).decrypt(after.bankAccountEnc!)).toBe('99887766');
    expect(after.ssnLastFour).toBe('3333');

    // Nothing left: a second run rewrites nothing, and the scheduled job runs cleanly.
    expect(await account.reencryptStale()).toBe(0);
    await t.runJob(ACCOUNT_JOBS.reencrypt);
  });

  it('leaves rows whose key is gone and reports them, without stopping', async () => {
    const h = await signUp(t.app, { hunter: true });
    await t.app.inject({ method: 'PUT', url: '/user/ssn/444556666', headers: h.auth });
    const stranger = new FieldCipher(crypto.randomBytes(32).toString('base64'));
    expect(
      await new AccountService(
        t.root.ctx,
        stranger,
        t.root.services.users,
        t.root.services.auth,
      ).reencryptStale(),
    ).toBe(0);
    expect(t.logs.join('')).toContain('re-encryption failed');
    expect(t.logs.join('')).not.toContain('444556666');
  });
});
