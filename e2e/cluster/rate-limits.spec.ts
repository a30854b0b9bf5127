/**
 * Rate limits are counted in Redis, so both instances count together; behind nginx they are
 * counted per client, which nginx names (TRUST_PROXY) and a client cannot pick.
 * Defaults (CONTRACT.md "Rate limits"): 10 failed sign-ins per e-mail per 15 minutes, 20
 * password-reset requests per IP per hour.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/api';
import { A, B, call, FRONT, ok } from './support';

const API = `${FRONT}/api`;

describe('rate limits shared by the instances', () => {
  it('ten failed sign-ins on A: the next one on B is refused with 429', async () => {
    const email = uniqueEmail('limited');
    await ok(API, 'POST', '/user', { body: { email, password: PASSWORD, hunter: false } });
    for (let i = 0; i < 10; i++) {
      const res = await call(A, 'POST', '/auth', { body: { email, password: 'Wrong!pass1' } });
      expect(res.status).toBe(400);
    }
    const onB = await call(B, 'POST', '/auth', { body: { email, password: PASSWORD } });
    expect(onB.status).toBe(429);
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(0);
    // And through nginx, whichever instance answers.
    expect((await call(API, 'POST', '/auth', { body: { email, password: PASSWORD } })).status).toBe(
      429,
    );
  });

  it('counts per client IP: nginx names the client, a forged X-Forwarded-For changes nothing', async () => {
    // Unknown addresses answer 404 after counting (POST /email/password/{email}).
    const reset = (base: string, forwarded: string) =>
      call(base, 'POST', `/email/password/${encodeURIComponent(uniqueEmail('reset'))}`, {
        headers: { 'x-forwarded-for': forwarded },
      });
    // Through nginx, a new forged address each time: all counted against this host, over
    // both instances (nginx alternates).
    const viaNginx = [];
    for (let i = 0; i < 21; i++) viaNginx.push((await reset(API, `203.0.113.${i}`)).status);
    expect(viaNginx.slice(0, 20).every((c) => c === 404)).toBe(true);
    expect(viaNginx[20]).toBe(429);

    // What nginx forwards, the instances believe (TRUST_PROXY): a client of its own, counted
    // on A and B together.
    const client = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    const codes = [];
    for (let i = 0; i < 20; i++) codes.push((await reset(i % 2 ? B : A, client)).status);
    expect(codes.every((c) => c === 404)).toBe(true);
    expect((await reset(A, client)).status).toBe(429);
    expect((await reset(B, client)).status).toBe(429);
  });
});
