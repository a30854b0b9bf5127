/** Bounties, rounds, claims and votes (SPEC.md §7; CONTRACT.md "Bounties and rounds"). */
import { errorAnswer } from '@bountyhunt/shared/users';
import {
  bountyAnswer,
  bountyCreateSchema,
  bountySearchSchema,
  claimAnswer,
  claimCreateSchema,
  feedAnswer,
  roundCreateSchema,
  voteSchema,
} from '@bountyhunt/shared/bounties';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors';
import { setNextCursor } from '../../lib/paging';
import { optionalActor, requireActor } from '../../plugins/auth';
import { viewerOf } from '../../lib/visibility';
import { CompressedOnce, sendJson } from '../../plugins/compress';

const idParams = z.object({ id: z.string().max(20) });

/** Path ids of the wrong shape are 404, never 500 (CONTRACT.md "API conventions"). */
function pathId(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw notFound();
  const id = Number(value);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}

const errors = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer, 404: errorAnswer };

const bountiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.root.services.bounties;
  const { rateLimiter } = app.root;

  app.post(
    '/bounty',
    {
      schema: {
        tags: ['bounties'],
        summary: 'Post a bounty (active member); holds `amount` silver and opens round 1',
        security: [{ bearer: [] }],
        body: bountyCreateSchema,
        response: { 200: bountyAnswer, ...errors, 402: errorAnswer },
      },
    },
    async (request) => service.create(await requireActor(request), request.body),
  );

  app.post(
    '/bounty/search',
    {
      schema: {
        tags: ['bounties'],
        summary:
          'Feed and search: prefix full-text on titles, relevance then recency; next page cursor in x-next-cursor',
        body: bountySearchSchema,
        response: { 200: feedAnswer, 400: errorAnswer },
      },
    },
    async (request, reply) => {
      // The page comes as JSON already encoded with feedAnswer (feed-cache.ts); a cached page
      // is compressed once, not once per answer.
      const page = await service.searchPage(request.body);
      setNextCursor(reply, page.nextCursor);
      // The feed (no term) is one page for everyone, kept and sent many times; a term's page is
      // mostly sent once, so compressed as an answer made for one request (decision 0036).
      page.compressed ??= new CompressedOnce(page.json, {
        oneOff: (request.body.term ?? '').trim() !== '',
      });
      return sendJson(request, reply, page.compressed);
    },
  );

  app.get(
    '/bounty/:id',
    {
      schema: {
        tags: ['bounties'],
        summary: 'A bounty with its rounds and their ranked claims',
        params: idParams,
        response: { 200: bountyAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      // JSON encoded with bountyAnswer by the service (its page cache, decision 0016).
      const page = await service.getPage(
        pathId(request.params.id),
        viewerOf(await optionalActor(request)),
      );
      return sendJson(request, reply, page.compressed);
    },
  );

  app.post(
    '/bounty/:id/round',
    {
      schema: {
        tags: ['bounties'],
        summary: 'The poster opens a further round once the current one has ended',
        security: [{ bearer: [] }],
        params: idParams,
        body: roundCreateSchema,
        response: { 200: bountyAnswer, ...errors, 402: errorAnswer, 409: errorAnswer },
      },
    },
    async (request) =>
      service.openRound(await requireActor(request), pathId(request.params.id), request.body),
  );

  app.post(
    '/claim',
    {
      schema: {
        tags: ['claims'],
        summary: "Post a claim (hunter) into the bounty's current Active round",
        security: [{ bearer: [] }],
        body: claimCreateSchema,
        response: { 200: claimAnswer, ...errors, 409: errorAnswer },
      },
    },
    async (request) => service.postClaim(await requireActor(request), request.body),
  );

  app.get(
    '/claim/:id',
    {
      schema: {
        tags: ['claims'],
        summary: 'A claim',
        params: idParams,
        response: { 200: claimAnswer, 404: errorAnswer },
      },
    },
    async (request, reply) => {
      // JSON encoded with claimAnswer by the service (its page cache, decision 0021).
      const page = await service.getClaimPage(
        pathId(request.params.id),
        viewerOf(await optionalActor(request)),
      );
      return sendJson(request, reply, page.compressed);
    },
  );

  app.get(
    '/claim/rank/:id',
    {
      schema: {
        tags: ['claims'],
        summary: 'The claim’s rank in its round (1 = most votes; ties to the earlier claim)',
        params: idParams,
        response: { 200: z.number().int(), 404: errorAnswer },
      },
    },
    async (request) =>
      service.rank(pathId(request.params.id), viewerOf(await optionalActor(request))),
  );

  app.get(
    '/vote/:id',
    {
      schema: {
        tags: ['votes'],
        summary: "The signed-in user's vote on a claim, 0 when none",
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.number().int(), 401: errorAnswer, 404: errorAnswer },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      return service.myVote(actor, pathId(request.params.id));
    },
  );

  app.post(
    '/vote',
    {
      schema: {
        tags: ['votes'],
        summary:
          'Vote 1–5 on a claim of an Active round, spending that much silver (once per claim)',
        security: [{ bearer: [] }],
        body: voteSchema,
        response: {
          200: z.object({
            claimId: z.number().int(),
            vote: z.number().int(),
            votes: z.number().int(),
            silver: z.number().int(),
          }),
          ...errors,
          402: errorAnswer,
          409: errorAnswer,
          429: errorAnswer,
        },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      await rateLimiter.consume(
        request.ip,
        `vote-user:${actor.userId}`,
        app.root.config.rateLimits.voteUser,
      );
      return service.vote(actor, request.body);
    },
  );
};

export default bountiesRoutes;
