/**
 * Operations endpoints and request ids (plugins/observability.ts, lib/request-context.ts):
 * /metrics in Prometheus text, liveness and readiness, and a request id on every answer and
 * every log line written while serving it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, createLogger } from '../src/app';
import { createRoot } from '../src/composition';
import { createDatabase } from '../src/db/client';
import { MemoryJobQueue } from '../src/jobs/memory-queue';
import { runContext } from '../src/lib/request-context';
import { createTestApp, signUp, testConfig, type TestApp } from './helper';
import { openStream } from './live-support';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function metricValue(text: string, name: string, labels: Record<string, string> = {}) {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== '{' && rest[0] !== ' ') continue;
    if (want.every((w) => rest.includes(w))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests by route template and status, with latency histograms', async () => {
    t = await createTestApp();
    const user = await signUp(t.app);
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: '/user', headers: user.auth });
    }
    await t.app.inject({ method: 'GET', url: '/bounty/987654' });
    await t.app.inject({ method: 'GET', url: '/no/such/route' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const requests = 'bountyhunt_http_requests_total';
    expect(metricValue(text, requests, { method: 'GET', route: '/user', status: '200' })).toBe(3);
    // The route's template, never the id in the URL.
    expect(
      metricValue(text, requests, { method: 'GET', route: '/bounty/:id', status: '404' }),
    ).toBe(1);
    expect(text).not.toContain('987654');
    expect(metricValue(text, requests, { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      metricValue(text, 'bountyhunt_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/user',
        status: '200',
      }),
    ).toBe(3);
    expect(text).toContain('bountyhunt_http_request_duration_seconds_bucket{le="0.025"');
    // The process, the pool and the streams.
    expect(metricValue(text, 'bountyhunt_process_resident_memory_bytes')).toBeGreaterThan(1e6);
    expect(metricValue(text, 'bountyhunt_db_pool_connections', { state: 'total' })).toBeGreaterThan(
      0,
    );
    expect(metricValue(text, 'bountyhunt_event_streams')).toBe(0);
  });

  it('counts open event streams', async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const user = await signUp(t.app);
    const stream = await openStream(base, { token: user.token });
    try {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metricValue(text, 'bountyhunt_event_streams')).toBe(1);
    } finally {
      stream.close();
    }
  });

  it('needs the metrics token when METRICS_TOKEN is set', async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-0123456788' },
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('bountyhunt_http_requests_total');
    expect(t.logs.join('\n')).not.toContain('metrics-token-0123456789');
  });
});

describe('liveness and readiness', () => {
  it('both answer 200 on a healthy instance', async () => {
    t = await createTestApp();
    const live = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('readiness is 503 with Retry-After when the database does not answer; liveness stays 200', async () => {
    const config = testConfig();
    // Nothing listens on port 1: every query fails at once.
    const database = await createDatabase('postgres://postgres@127.0.0.1:1/none');
    const log = createLogger(config, { write: () => undefined });
    const root = createRoot({ config, database, log, jobs: new MemoryJobQueue() });
    const app = await buildApp(root, log);
    try {
      const started = Date.now();
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('5');
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'database' });
      expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('request ids', () => {
  it('every answer carries one; a plain id from a proxy is kept, a strange one replaced', async () => {
    t = await createTestApp();
    const own = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(own.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'nginx-4f2a9c01b7e3' },
    });
    expect(kept.headers['x-request-id']).toBe('nginx-4f2a9c01b7e3');
    for (const bad of ['two words', 'x'.repeat(129), 'line\\nbreak', '<script>']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/health/live',
        headers: { 'x-request-id': bad },
      });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Errors too.
    const missing = await t.app.inject({ method: 'GET', url: '/bounty/1' });
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the request on every log line written while serving it, also by services (LOG_CONTEXT=1)', async () => {
    t = await createTestApp({ env: { LOG_CONTEXT: '1' } });
    const before = t.logs.length;
    const { lines } = await signUpTraced(t, 'req-trace-0001', 'trace@example.com');
    const during = lines.filter((l) => l.msg !== 'a service line');
    expect(during.length).toBeGreaterThanOrEqual(2);
    for (const l of during) expect(l.reqId).toBe('req-trace-0001');
    // Each line names it once (a request's own logger is not given it twice).
    const raw = t.logs.slice(before).filter((l) => l.includes('req-trace-0001'));
    for (const l of raw) expect(l.split('"reqId"').length).toBe(2);
    // Outside any request, no id.
    expect(lines.find((l) => l.msg === 'a service line')?.reqId).toBeUndefined();
  });

  it('by default names the request on its own lines only, and runs nothing in an AsyncLocalStorage', async () => {
    t = await createTestApp();
    expect(t.root.config.LOG_CONTEXT).toBe('0');
    const run = vi.spyOn(runContext, 'run');
    let traced: Awaited<ReturnType<typeof signUpTraced>>;
    try {
      traced = await signUpTraced(t, 'req-trace-0002', 'trace2@example.com');
      // Nothing ran in the store: Node calls no promise hooks for it (decision 0040).
      expect(run).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
    }
    const { res, lines } = traced;
    expect(res.headers['x-request-id']).toBe('req-trace-0002');
    // Fastify's lines for the request (received, answered) name it through its own logger.
    const own = lines.filter((l) => l.msg !== 'a service line');
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const l of own) expect(l.reqId).toBe('req-trace-0002');
    expect(lines.find((l) => l.msg === 'a service line')?.reqId).toBeUndefined();
  });
});

/**
 * Signs up with `x-request-id: reqId`, then writes a line with the root logger (as a service
 * does, no Fastify binding): the answer and every log line written since.
 */
async function signUpTraced(app: TestApp, reqId: string, email: string) {
  const before = app.logs.length;
  const res = await app.app.inject({
    method: 'POST',
    url: '/user',
    headers: { 'x-request-id': reqId },
    payload: { email, password: 'Secret-pass1!', hunter: false },
  });
  expect(res.statusCode).toBeLessThan(300);
  app.root.ctx.log.info('a service line');
  const lines = app.logs.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { res, lines };
}
