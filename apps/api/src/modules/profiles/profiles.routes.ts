/**
 * Profiles routes (SPEC.md §7): GET /hunter/handle/{handle}, GET /posts/{hunterId},
 * GET /user/claims/{hunterId}, POST /post, plus the merged profile feed, PUT /hunter/banner and
 * the hunters directory. Paged lists answer an array and put the next page's cursor in
 * `x-next-cursor` (absent on the last page).
 */
import { errorAnswer } from '@bountyhunt/shared/users';
import {
  bannerSchema,
  directoryQuery,
  feedItemAnswer,
  handleParams,
  hunterAnswer,
  hunterCardAnswer,
  hunterIdParams,
  hunterProfileAnswer,
  pageQuery,
  postAnswer,
  postCreateSchema,
  profileClaimAnswer,
} from '@bountyhunt/shared/profiles';
import { NEXT_CURSOR_HEADER } from '@bountyhunt/shared/api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionalActor, requireActor } from '../../plugins/auth';
import { viewerOf } from '../../lib/visibility';
import { sendPage } from '../../lib/paging';

const pagedHeaders = {
  description: `Array; the next page's cursor is in the ${NEXT_CURSOR_HEADER} header`,
};

const profilesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profiles } = app.root.services;

  app.get(
    '/hunter/handle/:handle',
    {
      schema: {
        tags: ['profiles'],
        summary: 'A hunter by handle (case-insensitive), with post, claim and vote counts',
        params: handleParams,
        response: { 200: hunterProfileAnswer, 404: errorAnswer },
      },
    },
    async (request) =>
      profiles.profileByHandle(request.params.handle, viewerOf(await optionalActor(request))),
  );

  app.get(
    '/posts/:hunterId',
    {
      schema: {
        tags: ['profiles'],
        summary: "A hunter's posts, newest first, paged",
        params: hunterIdParams,
        querystring: pageQuery,
        response: {
          200: z.array(postAnswer).describe(pagedHeaders.description),
          400: errorAnswer,
          404: errorAnswer,
        },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await profiles.posts(
          request.params.hunterId,
          request.query,
          viewerOf(await optionalActor(request)),
        ),
      ),
  );

  app.get(
    '/user/claims/:hunterId',
    {
      schema: {
        tags: ['profiles'],
        summary: "A hunter's claims, newest first, each with its rank in its round, paged",
        params: hunterIdParams,
        querystring: pageQuery,
        response: {
          200: z.array(profileClaimAnswer).describe(pagedHeaders.description),
          400: errorAnswer,
          404: errorAnswer,
        },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await profiles.claims(
          request.params.hunterId,
          request.query,
          viewerOf(await optionalActor(request)),
        ),
      ),
  );

  app.get(
    '/hunter/:hunterId/feed',
    {
      schema: {
        tags: ['profiles'],
        summary: "A hunter's posts and claims merged, newest first, paged",
        params: hunterIdParams,
        querystring: pageQuery,
        response: {
          200: z.array(feedItemAnswer).describe(pagedHeaders.description),
          400: errorAnswer,
          404: errorAnswer,
        },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await profiles.feed(
          request.params.hunterId,
          request.query,
          viewerOf(await optionalActor(request)),
        ),
      ),
  );

  app.get(
    '/hunters',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Hunters directory: by handle, optionally filtered by handle or stage name',
        querystring: directoryQuery,
        response: {
          200: z.array(hunterCardAnswer).describe(pagedHeaders.description),
          400: errorAnswer,
        },
      },
    },
    async (request, reply) =>
      sendPage(
        reply,
        await profiles.directory(request.query, viewerOf(await optionalActor(request))),
      ),
  );

  app.post(
    '/post',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Create a post (hunters): one uploaded image or video and a body of 200 at most',
        security: [{ bearer: [] }],
        body: postCreateSchema,
        response: {
          200: postAnswer,
          400: errorAnswer,
          401: errorAnswer,
          403: errorAnswer,
          404: errorAnswer,
        },
      },
    },
    async (request) => profiles.createPost(await requireActor(request), request.body),
  );

  app.put(
    '/hunter/banner',
    {
      schema: {
        tags: ['profiles'],
        summary: "Set the signed-in hunter's banner to an uploaded image",
        security: [{ bearer: [] }],
        body: bannerSchema,
        response: {
          200: hunterAnswer,
          400: errorAnswer,
          401: errorAnswer,
          403: errorAnswer,
        },
      },
    },
    async (request) => profiles.setBanner(await requireActor(request), request.body),
  );
};

export default profilesRoutes;
