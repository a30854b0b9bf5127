/**
 * The admin console's users (issue 17 part 4). Every route passes the admin gate (role bit 4
 * and the second factor) before its body is read, so the matrix's callers get 401/403 first.
 */
import {
  adminUserDetail,
  adminUserIdParams,
  adminUserRow,
  adminUsersQuery,
  grantSilverSchema,
  refundAnswer,
  refundSchema,
  resendMailSchema,
  suspendSchema,
} from '@bountyhunt/shared/admin-users';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/paging';
import { optionalActor } from '../../plugins/auth';

const errors = {
  400: errorAnswer,
  401: errorAnswer,
  403: errorAnswer,
  404: errorAnswer,
  409: errorAnswer,
  429: errorAnswer,
};

const adminUsersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { admin, adminUsers, refunds } = app.root.services;
  const limiter = app.root.rateLimiter;
  const limits = app.root.config.rateLimits;
  const gate = async (request: FastifyRequest) => admin.gate(await optionalActor(request));
  const onRequest = async (request: FastifyRequest) => void (await gate(request));

  app.get(
    '/admin/users',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary: 'Users by id, e-mail prefix or handle prefix (q), newest first (x-next-cursor)',
        querystring: adminUsersQuery,
        response: { 200: z.array(adminUserRow), ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await adminUsers.list(request.query)),
  );

  app.get(
    '/admin/users/:userId',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary:
          "A user's page: role, membership, silver, identity, masked tax/bank, sessions, recent votes, claims, posts",
        params: adminUserIdParams,
        response: { 200: adminUserDetail, ...errors },
      },
    },
    async (request) => adminUsers.detail(request.params.userId),
  );

  app.post(
    '/admin/users/:userId/suspend',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary: 'Suspend: every session ends now, sign-in answers 403 SUSPENDED',
        params: adminUserIdParams,
        body: suspendSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await gate(request);
      await adminUsers.suspend(actor, request.params.userId, request.body.reason, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/users/:userId/unsuspend',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary: 'Lift a suspension: sign-in works again',
        params: adminUserIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await gate(request);
      await adminUsers.unsuspend(actor, request.params.userId, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/users/:userId/silver',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary: 'Grant silver with a reason: a ledger entry the member sees in their history',
        params: adminUserIdParams,
        body: grantSilverSchema,
        response: { 200: z.object({ silver: z.number().int() }), ...errors },
      },
    },
    async (request) =>
      adminUsers.grantSilver(await gate(request), request.params.userId, request.body, request.ip),
  );

  app.post(
    '/admin/users/:userId/mail',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary: 'Send the password reset mail again (limited like reset requests, per user)',
        params: adminUserIdParams,
        body: resendMailSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await gate(request);
      const { userId } = request.params;
      // Counted per user like public reset requests are per e-mail, so no inbox is flooded.
      await limiter.consume(request.ip, `admin-mail:${userId}`, limits.resetEmail);
      await adminUsers.resendMail(actor, userId, request.body, request.ip);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/users/:userId/refund',
    {
      onRequest,
      schema: {
        tags: ['admin'],
        summary:
          "Refund a membership payment: money back to the card, the plan's silver the member holds taken back, hunters' unpaid earnings from the rest reversed",
        params: adminUserIdParams,
        body: refundSchema,
        response: { 200: refundAnswer, ...errors },
      },
    },
    async (request) =>
      refunds.refund(await gate(request), request.params.userId, request.body, request.ip),
  );
};

export default adminUsersRoutes;
