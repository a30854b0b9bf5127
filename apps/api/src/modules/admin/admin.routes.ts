import {
  adminMeAnswer,
  auditEntry,
  auditQuery,
  dashboardAnswer,
  totpStatusAnswer,
  totpConfirmSchema,
  totpEnrolAnswer,
  totpVerifySchema,
} from '@bountyhunt/shared/admin';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendPage } from '../../lib/paging';
import { optionalActor } from '../../plugins/auth';

const errors = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer, 429: errorAnswer };

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.root.services.admin;
  const limiter = app.root.rateLimiter;
  const rule = app.root.config.rateLimits.loginEmail;
  const gate = async (request: FastifyRequest, secondFactor = true) =>
    admin.gate(await optionalActor(request), { secondFactor });

  /** Wrong codes count like failed sign-ins, per admin. */
  const limited = async (request: FastifyRequest, userId: number, run: () => Promise<void>) => {
    const key = `admin-totp:${userId}`;
    await limiter.check(request.ip, key, rule);
    try {
      await run();
    } catch (err) {
      await limiter.record(request.ip, key, rule);
      throw err;
    }
  };

  app.post(
    '/admin/totp/enrol',
    {
      schema: {
        tags: ['admin'],
        summary: 'Start TOTP enrolment: secret (otpauth URL and QR) and recovery codes, once',
        response: { 200: totpEnrolAnswer, 409: errorAnswer, ...errors },
      },
    },
    async (request) => admin.enrol(await gate(request, false)),
  );

  app.post(
    '/admin/totp/confirm',
    {
      // Access before the body: anonymous → 401, not 400 for a missing code.
      onRequest: async (request) => void (await gate(request, false)),
      schema: {
        tags: ['admin'],
        summary: 'Confirm enrolment with a current code; this session passes the second factor',
        body: totpConfirmSchema,
        response: { 204: z.null(), 409: errorAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const actor = await gate(request, false);
      await limited(request, actor.userId, () =>
        admin.confirm(actor, request.body.code, request.ip),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/totp/verify',
    {
      // Access before the body: anonymous → 401, not 400 for a missing code.
      onRequest: async (request) => void (await gate(request, false)),
      schema: {
        tags: ['admin'],
        summary: 'Pass the second factor for this session: {code} or a one-time {recoveryCode}',
        body: totpVerifySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await gate(request, false);
      await limited(request, actor.userId, () => admin.verify(actor, request.body, request.ip));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/totp/status',
    {
      schema: {
        tags: ['admin'],
        summary: 'Whether an authenticator is set up and this session has passed it',
        response: { 200: totpStatusAnswer, ...errors },
      },
    },
    async (request) => admin.status(await gate(request, false)),
  );

  app.get(
    '/admin/audit',
    {
      onRequest: async (request) => void (await gate(request)),
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first; filter by actor, action or target (x-next-cursor)',
        querystring: auditQuery,
        response: { 200: z.array(auditEntry), ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await app.root.services.audit.list(request.query)),
  );

  app.get(
    '/admin/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary: 'Operations counts: users, members, MRR, today’s claims and votes, queues, jobs',
        response: { 200: dashboardAnswer, ...errors },
      },
    },
    async (request) => {
      await gate(request);
      return app.root.services.dashboard.dashboard();
    },
  );

  app.get(
    '/admin/me',
    {
      schema: {
        tags: ['admin'],
        summary: 'The signed-in admin (behind the second factor)',
        response: { 200: adminMeAnswer, ...errors },
      },
    },
    async (request) => admin.me(await gate(request)),
  );
};

export default adminRoutes;
