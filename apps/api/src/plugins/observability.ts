/**
 * Operations endpoints (docs/architecture.md "Operations"):
 * - `GET /metrics`: Prometheus text format (prom-client): requests and latency by route and
 *   status, job queue depth and attempts, the database pool, open event streams, and the
 *   process itself. With METRICS_TOKEN set it needs `Authorization: Bearer <token>`.
 * - `GET /health/live`: the process answers (a supervisor restarts it when this fails).
 * - `GET /health/ready`: the database answers within 2 s, so a balancer may send traffic;
 *   503 otherwise, and while the server is closing (Fastify answers 503 then).
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { z } from 'zod';
import type { Root } from '../composition';

const READY_TIMEOUT_MS = 2_000;
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(root: Root): client.Registry {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'bountyhunt_' });
  const { database } = root;
  const jobs = root.ctx.jobs;

  new client.Gauge({
    name: 'bountyhunt_jobs',
    help: 'Jobs in the durable queue by queue and state (created and retry are waiting).',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      if (!jobs.counts) return;
      try {
        const counts = await jobs.counts();
        for (const [queue, states] of Object.entries(counts)) {
          for (const [state, n] of Object.entries(states)) this.set({ queue, state }, n);
        }
      } catch {
        // The database is down: the gauge is empty and /health/ready says why.
      }
    },
  });
  new client.Counter({
    name: 'bountyhunt_job_attempts_total',
    help: 'Job attempts this process ran, by queue and outcome (done or failed).',
    labelNames: ['queue', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, t] of jobs.runTotals?.() ?? []) {
        this.inc({ queue, outcome: 'done' }, t.done);
        this.inc({ queue, outcome: 'failed' }, t.failed);
      }
    },
  });
  new client.Gauge({
    name: 'bountyhunt_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting requests); 1 on PGlite.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = database.pool;
      if (pool) {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      } else {
        this.set({ state: 'total' }, 1);
      }
    },
  });
  new client.Gauge({
    name: 'bountyhunt_event_streams',
    help: 'Open GET /events streams on this instance.',
    registers: [registry],
    collect() {
      this.set(root.services.live.hub.size);
    },
  });
  return registry;
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export async function registerObservability(app: FastifyInstance, root: Root): Promise<void> {
  const registry = createMetrics(root);
  const requests = new client.Counter({
    name: 'bountyhunt_http_requests_total',
    help: 'Answered requests by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'bountyhunt_http_request_duration_seconds',
    help: 'Time to answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  app.addHook('onResponse', (request, reply, done) => {
    // The route template, never the raw URL: ids and secrets in paths stay out of labels.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const token = root.config.METRICS_TOKEN;
  app.get(
    '/metrics',
    { schema: { tags: ['ops'], summary: 'Prometheus metrics (text format)' } },
    async (request, reply) => {
      if (token) {
        const auth = request.headers.authorization ?? '';
        const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
        if (!sameSecret(given, token)) {
          return reply
            .code(401)
            .send({ message: 'Metrics need the metrics token.', code: 'UNAUTHORIZED' });
        }
      }
      const text = await registry.metrics();
      return reply.type(registry.contentType).send(text);
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness: 200 while the process answers',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: 200 when the database answers within 2 s, 503 otherwise',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable'), reason: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          root.database.db.execute(sql`select 1`),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
          }),
        ]);
        return { status: 'ok' as const };
      } catch {
        reply.header('retry-after', '5');
        return reply.code(503).send({ status: 'unavailable' as const, reason: 'database' });
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
