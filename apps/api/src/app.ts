/**
 * Builds the API as a Fastify instance around a composition root (composition.ts); server.ts
 * listens, tests inject. The root is built first, with the logger this app will use.
 */
import crypto from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import pino, { type DestinationStream } from 'pino';
import { z } from 'zod';
import type { Root } from './composition';
import type { Config } from './env';
import authRoutes from './modules/auth/auth.routes';
import usersRoutes from './modules/users/users.routes';
import accountRoutes from './modules/account/account.routes';
import billingRoutes from './modules/billing/billing.routes';
import bountiesRoutes from './modules/bounties/bounties.routes';
import mediaRoutes from './modules/media/media.routes';
import profilesRoutes from './modules/profiles/profiles.routes';
import adminRoutes from './modules/admin/admin.routes';
import identityRoutes from './modules/identity/identity.routes';
import adminUsersRoutes from './modules/admin/admin-users.routes';
import moderationRoutes from './modules/moderation/moderation.routes';
import payoutsRoutes from './modules/payouts/payouts.routes';
import liveRoutes from './modules/live/live.routes';
import messagesRoutes from './modules/messages/messages.routes';
import notificationsRoutes from './modules/notifications/notifications.routes';
import { registerCompression } from './plugins/compress';
import { registerErrorHandler } from './plugins/error-handler';
import { registerObservability } from './plugins/observability';
import { InFlight, trackHandlers } from './plugins/in-flight';
import { lazyChild } from './lib/lazy-logger';
import { BOUND_REQ_ID, contextFields, REQUEST_ID_PATTERN, runIn } from './lib/request-context';
import { registerInputTextCheck } from './plugins/input-text';
import { REDACT_PATHS, requestSerializers } from './plugins/logging';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every service and adapter of this API, built once (composition.ts). */
    root: Root;
    /** Route handlers still running (a shutdown waits for them before closing the database). */
    inFlight: InFlight;
  }
}

export function createLogger(config: Config, stream?: DestinationStream): FastifyBaseLogger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { ...requestSerializers, err: pino.stdSerializers.err },
      // The request or job being served, on every line (lib/request-context.ts; LOG_CONTEXT=1).
      ...(config.LOG_CONTEXT === '1'
        ? { mixin: (_merge: object, _level: number, logger: object) => contextFields(logger) }
        : {}),
    },
    stream,
  ) as FastifyBaseLogger;
}

/**
 * Each request's logger: a child bound to its id, made on the request's first line
 * (lib/lazy-logger.ts); at once when the route sets a level or serializers of its own, since
 * the root's level then says nothing of it.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: pino.Bindings,
  opts: pino.ChildLoggerOptions,
): FastifyBaseLogger {
  const make = () => {
    const child = logger.child(bindings, opts);
    (child as unknown as Record<symbol, boolean>)[BOUND_REQ_ID] = true;
    return child;
  };
  return Object.keys(opts).length > 0 ? make() : lazyChild(logger, make);
}

/** Fastify's trustProxy: a hop count as the function Fastify makes of one (its types lack it). */
function trustProxyOption(
  value: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/**
 * Helmet's defaults for an API that answers JSON (no Content-Security-Policy: only the docs
 * page renders HTML) whose media may be embedded elsewhere (Cross-Origin-Resource-Policy).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});

/** `logger` must be the one the root was built with, so requests and services log alike. */
export async function buildApp(root: Root, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  const { config, database } = root;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: 1024 * 1024,
    // Off unless TRUST_PROXY names the proxy in front (deploy/nginx): then request.ip, which
    // rate limits and the audit log use, is the client from X-Forwarded-For.
    trustProxy: trustProxyOption(config.trustProxy),
    // A proxy's or client's x-request-id is kept when it is plain (nginx: $request_id).
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) ? sent : crypto.randomUUID();
    },
    childLoggerFactory: requestLogger,
    // E-mails of up to 320 characters travel in paths (SPEC.md §7: PUT /user/email/{email}).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1024 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('root', root);
  // Before any route: every handler is counted while it runs (plugins/in-flight.ts).
  const inFlight = new InFlight();
  app.decorate('inFlight', inFlight);
  trackHandlers(app as unknown as FastifyInstance, inFlight);

  // With LOG_CONTEXT=1, everything after this hook runs inside the request's context (every log
  // line names the request; decision 0040). Every answer carries its request id and the
  // security headers (what @fastify/helmet sent with this configuration, set at once: issue 21
  // measured helmet's middleware chain).
  const logContext = config.LOG_CONTEXT === '1';
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    runIn(logContext, { reqId: request.id }, done);
  });

  registerErrorHandler(app);
  registerInputTextCheck(app);
  registerCompression(app);
  await app.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    exposedHeaders: ['retry-after', 'x-request-id', 'x-next-cursor'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'BountyHunt API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await registerObservability(app, root);

  app.get(
    '/health',
    {
      schema: {
        tags: ['ops'],
        summary: '200 when the database answers, 503 otherwise',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await database.db.execute(sql`select 1`);
        return { status: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );

  await app.register(authRoutes);
  await app.register(usersRoutes);
  // One plugin per feature; each feature owns its folder under modules/.
  await app.register(mediaRoutes);
  await app.register(accountRoutes);
  await app.register(billingRoutes);
  await app.register(bountiesRoutes);
  await app.register(profilesRoutes);
  await app.register(adminRoutes);
  await app.register(identityRoutes);
  await app.register(adminUsersRoutes);
  await app.register(moderationRoutes);
  await app.register(payoutsRoutes);
  await app.register(liveRoutes);
  await app.register(messagesRoutes);
  await app.register(notificationsRoutes);

  return app as unknown as FastifyInstance;
}
