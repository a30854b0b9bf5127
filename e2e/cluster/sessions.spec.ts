/**
 * One product behind nginx: a session made through one instance works on the other and through
 * nginx, and ends everywhere at once; nginx spreads calls over both instances and passes the
 * request id through.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/api';
import { A, B, call, clusterFile, FRONT, instanceLog, ok } from './support';

const API = `${FRONT}/api`;

describe('sessions across instances', () => {
  it('a token made on A works on B and through nginx; signing out on B ends it on A', async () => {
    const email = uniqueEmail('cluster');
    await ok(A, 'POST', '/user', { body: { email, password: PASSWORD, hunter: false } });
    const { token } = await ok<{ token: string }>(A, 'POST', '/auth', {
      body: { email, password: PASSWORD },
    });
    const ids = [];
    for (const base of [A, B, API]) {
      const me = await ok<{ user: { userId: number; email: string } }>(base, 'GET', '/user', {
        token,
      });
      expect(me.user.email).toBe(email);
      ids.push(me.user.userId);
    }
    expect(new Set(ids).size).toBe(1);

    expect((await call(B, 'DELETE', `/auth/${token}`)).status).toBe(204);
    for (const base of [A, B, API])
      expect((await call(base, 'GET', '/user', { token })).status).toBe(401);
  });

  it('nginx sends calls to both instances and passes X-Request-Id both ways', async () => {
    const rid = `cluster-${Date.now().toString(36)}`;
    const tagged = await fetch(`${API}/health`, { headers: { 'x-request-id': rid } });
    expect(tagged.status).toBe(200);
    expect(tagged.headers.get('x-request-id')).toBe(rid);
    // Without one, nginx makes one (32 hex digits) and the API answers with it.
    const plain = await fetch(`${API}/health`);
    const made = plain.headers.get('x-request-id') ?? '';
    expect(made).toMatch(/^[0-9a-f]{32}$/);

    for (let i = 0; i < 6; i++) expect((await fetch(`${API}/health`)).status).toBe(200);
    await expect
      .poll(() => clusterFile('nginx/logs/bountyhunt.access.log'))
      .toContain(`rid=${rid}`);
    const access = clusterFile('nginx/logs/bountyhunt.access.log');
    expect(access).toContain(`rid=${made}`);
    const ports = new Set([...access.matchAll(/upstream=127\.0\.0\.1:(\d+)/g)].map((m) => m[1]));
    // (The third upstream of the log, if any, is the bucket behind /media/.)
    expect(ports).toContain(new URL(A).port);
    expect(ports).toContain(new URL(B).port);
    // The instance that answered logged the request under nginx's id.
    const logged = [...instanceLog(1), ...instanceLog(2)].filter((l) => l.reqId === rid);
    expect(logged.length).toBeGreaterThan(0);
  });

  it('each instance answers health and metrics on its own address; nginx keeps /metrics private', async () => {
    for (const base of [A, B]) {
      expect((await call(base, 'GET', '/health/ready')).status).toBe(200);
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('bountyhunt_http_requests_total');
    }
    expect((await call(API, 'GET', '/health/live')).status).toBe(200);
    expect((await fetch(`${API}/metrics`)).status).toBe(404);
  });
});
