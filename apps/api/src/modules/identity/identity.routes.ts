/**
 * Identity routes: the hunter's submission (PUT /user/identity, SPEC.md §7), the admin review
 * (/admin/identities…, behind the /admin gate and its second factor) and the signed image
 * links the review page shows (/identity-media/:token: the token is the authority, so an
 * <img src> works; it expires after 5 minutes and never names the media key).
 */
import { identitySubmitSchema } from '@bountyhunt/shared/account';
import {
  identityDetailAnswer,
  identityIdParams,
  identityQueueItem,
  identityQueueQuery,
  identityRejectSchema,
} from '@bountyhunt/shared/identity';
import { ROLE } from '@bountyhunt/shared/roles';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/paging';
import { optionalActor, requireRole } from '../../plugins/auth';
import { IDENTITY_MEDIA_PATH } from './identity.service';

const errors = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer };
const bearer = [{ bearer: [] }];

const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const identity = app.root.services.identity;
  const admin = app.root.services.admin;
  /** The /admin gate (401 / 403 / 403 SECOND_FACTOR_REQUIRED), before the body and params. */
  const gate = async (request: FastifyRequest) => admin.gate(await optionalActor(request));
  const gated = async (request: FastifyRequest) => void (await gate(request));

  app.put(
    '/user/identity',
    {
      onRequest: async (request) => void (await requireRole(request, ROLE.hunter)),
      schema: {
        tags: ['account'],
        summary:
          'Submit an ID photo and a selfie (private uploads) for review; status → pending. ' +
          'ageConfirmed is optional and recorded when sent.',
        security: bearer,
        body: identitySubmitSchema,
        response: { 204: z.null(), 409: errorAnswer, ...errors },
      },
    },
    async (request, reply) => {
      const actor = await requireRole(request, ROLE.hunter);
      await identity.submit(actor, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/identities',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'The identity review queue: pending submissions, oldest first (x-next-cursor)',
        security: bearer,
        querystring: identityQueueQuery,
        response: { 200: z.array(identityQueueItem), ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await identity.queue(request.query)),
  );

  app.get(
    '/admin/identities/:id',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'One submission with signed URLs (paths on this API) of its two images, 5 minutes',
        security: bearer,
        params: identityIdParams,
        response: { 200: identityDetailAnswer, 404: errorAnswer, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return identity.detail(request.params.id);
    },
  );

  app.post(
    '/admin/identities/:id/approve',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'Approve a pending submission (409 when already decided); the user is mailed',
        security: bearer,
        params: identityIdParams,
        response: { 200: identityDetailAnswer, 404: errorAnswer, 409: errorAnswer, ...errors },
      },
    },
    async (request) => identity.approve(await gate(request), request.params.id, request.ip ?? null),
  );

  app.post(
    '/admin/identities/:id/reject',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary:
          'Reject a pending submission with a listed reason and free text (required for other); ' +
          'the user is mailed and may submit again',
        security: bearer,
        params: identityIdParams,
        body: identityRejectSchema,
        response: { 200: identityDetailAnswer, 404: errorAnswer, 409: errorAnswer, ...errors },
      },
    },
    async (request) =>
      identity.reject(await gate(request), request.params.id, request.body, request.ip ?? null),
  );

  app.get(
    `${IDENTITY_MEDIA_PATH}/:token`,
    {
      schema: {
        tags: ['admin'],
        summary:
          'A private identity image through a signed link from GET /admin/identities/:id ' +
          '(404 when invalid or expired)',
        params: z.object({ token: z.string().max(400) }),
      },
    },
    async (request, reply) => {
      const stream = await identity.readSigned(request.params.token);
      return reply
        .type('image/webp')
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );
};

export default identityRoutes;
