/** Reports (any signed-in user) and the admin moderation queue (issue 17 part 5). */
import { adminPageQuery } from '@bountyhunt/shared/admin';
import {
  reportAnswer,
  reportCreateSchema,
  reportCreatedAnswer,
  reportDecisionAnswer,
  reportGroupAnswer,
  reportQueueQuery,
  reportTargetParams,
} from '@bountyhunt/shared/moderation';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/paging';
import { optionalActor, requireActor } from '../../plugins/auth';

const errors = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer, 429: errorAnswer };

const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { admin, moderation } = app.root.services;
  const { rateLimiter } = app.root;
  const gate = async (request: FastifyRequest) => admin.gate(await optionalActor(request));

  app.post(
    '/report',
    {
      // Who before what: anonymous → 401 before the body is read.
      onRequest: async (request) => void (await requireActor(request)),
      schema: {
        tags: ['moderation'],
        summary:
          'Report a claim, post, hunter profile or bounty (one open report per user and item)',
        security: [{ bearer: [] }],
        body: reportCreateSchema,
        response: { 200: reportCreatedAnswer, ...errors, 404: errorAnswer, 409: errorAnswer },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      await rateLimiter.consume(
        request.ip,
        `report-user:${actor.userId}`,
        app.root.config.rateLimits.reportUser,
      );
      return moderation.report(actor, request.body);
    },
  );

  app.get(
    '/admin/reports',
    {
      onRequest: async (request) => void (await gate(request)),
      schema: {
        tags: ['admin'],
        summary:
          'Open reports grouped by item with counts and a preview; sort oldest (default) or most (x-next-cursor)',
        querystring: reportQueueQuery,
        response: { 200: z.array(reportGroupAnswer), ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await moderation.queue(request.query)),
  );

  app.get(
    '/admin/reports/:targetType/:targetId',
    {
      onRequest: async (request) => void (await gate(request)),
      schema: {
        tags: ['admin'],
        summary: 'The open reports of one item, oldest first (x-next-cursor)',
        params: reportTargetParams,
        querystring: adminPageQuery,
        response: { 200: z.array(reportAnswer), ...errors },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await moderation.itemReports(
          request.params.targetType,
          request.params.targetId,
          request.query,
        ),
      ),
  );

  for (const decision of ['hide', 'keep'] as const)
    app.post(
      `/admin/reports/:targetType/:targetId/${decision}`,
      {
        onRequest: async (request) => void (await gate(request)),
        schema: {
          tags: ['admin'],
          summary:
            decision === 'hide'
              ? 'Hide the item from everyone but its owner and admins; closes its open reports'
              : 'Keep the item visible (shows it again if hidden); closes its open reports',
          params: reportTargetParams,
          response: { 200: reportDecisionAnswer, ...errors, 404: errorAnswer },
        },
      },
      async (request) =>
        moderation.decide(
          await gate(request),
          request.params.targetType,
          request.params.targetId,
          decision,
          request.ip,
        ),
    );
};

export default moderationRoutes;
