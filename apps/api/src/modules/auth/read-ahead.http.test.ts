/**
 * Sessions read ahead of their cache time (decision 0041): a member who keeps making requests
 * is always answered from the session cache, because each entry is read again behind an answer
 * shortly before its time runs out, never by the request that finds it gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens';
import { createTestApp, signUp, type TestApp } from '../../../test/helper';

let t: TestApp;
beforeAll(async () => {
  // 2.5 s: each entry is read ahead in its last 0.5 s (the first one in its last 0.25–0.5 s).
  t = await createTestApp({ env: { SESSION_CACHE_MS: '2500', USER_CACHE_MS: '2500' } });
});
afterAll(() => t.close());

describe('sessions read ahead of the cache time', () => {
  it('a member reading every 50 ms is never without a cached session for 6 s', async () => {
    const u = await signUp(t.app);
    const hash = hashToken(u.auth.authorization.slice('Bearer '.length));
    const first = await t.app.inject({ method: 'GET', url: '/user', headers: u.auth });
    expect(first.statusCode).toBe(200);
    const sessions = t.root.services.auth.sessions;
    let lapsed = 0;
    const end = Date.now() + 6000;
    while (Date.now() < end) {
      if (!sessions.get(hash, Date.now())) lapsed += 1;
      const res = await t.app.inject({ method: 'GET', url: '/user', headers: u.auth });
      expect(res.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Without reads ahead it would have lapsed at least twice (2.5 s limit over 6 s).
    expect(lapsed).toBe(0);
  });
});
