/** Direct messages (issue 19): conversations, threads, read receipts and blocks. */
import {
  conversationItem,
  conversationListAnswer,
  conversationOpenSchema,
  conversationReadSchema,
  messageItem,
  messagePageAnswer,
  messagePageQuery,
  messageSendSchema,
  unreadAnswer,
} from '@bountyhunt/shared/live';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireActor } from '../../plugins/auth';
import { digits } from '@bountyhunt/shared/numbers';

const errors = { 400: errorAnswer, 401: errorAnswer, 403: errorAnswer, 404: errorAnswer };
const idParams = z.object({ id: digits(z.number().int().positive().max(2_147_483_647)) });
const userParams = z.object({ userId: digits(z.number().int().positive().max(2_147_483_647)) });

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { messages } = app.root.services;
  const { rateLimiter } = app.root;
  const signedIn = async (request: FastifyRequest) => void (await requireActor(request));
  const tags = ['messages'];
  const security = [{ bearer: [] }];

  app.get(
    '/conversations',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'My conversations, most recent first, with unread counts',
        response: { 200: conversationListAnswer, ...errors },
      },
    },
    async (request) => messages.list(await requireActor(request)),
  );

  app.get(
    '/conversations/unread',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Unread messages over all my conversations',
        response: { 200: unreadAnswer, ...errors },
      },
    },
    async (request) => messages.unread(await requireActor(request)),
  );

  app.post(
    '/conversations',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Opens (or finds) my conversation with the user of a handle',
        body: conversationOpenSchema,
        response: { 200: conversationItem, ...errors },
      },
    },
    async (request) => messages.open(await requireActor(request), request.body.handle),
  );

  app.get(
    '/conversations/:id',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'One of my conversations',
        params: idParams,
        response: { 200: conversationItem, ...errors },
      },
    },
    async (request) => messages.get(await requireActor(request), request.params.id),
  );

  app.get(
    '/conversations/:id/messages',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'A page of the thread, oldest first (before = nextBefore pages back)',
        params: idParams,
        querystring: messagePageQuery,
        response: { 200: messagePageAnswer, ...errors },
      },
    },
    async (request) => messages.page(await requireActor(request), request.params.id, request.query),
  );

  app.post(
    '/conversations/:id/messages',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Sends a message (1 to 1,000 characters, optionally one image)',
        params: idParams,
        body: messageSendSchema,
        response: { 200: messageItem, ...errors, 429: errorAnswer },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      await rateLimiter.consume(
        request.ip,
        `message-user:${actor.userId}`,
        app.root.config.rateLimits.messageUser,
      );
      return messages.send(actor, request.params.id, request.body);
    },
  );

  app.post(
    '/conversations/:id/read',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Marks the thread read up to a message (read receipt for the other side)',
        params: idParams,
        body: conversationReadSchema,
        response: { 200: z.object({ upTo: z.number().int() }), ...errors },
      },
    },
    async (request) =>
      messages.read(await requireActor(request), request.params.id, request.body.upTo),
  );

  app.put(
    '/blocks/:userId',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Blocks a user: no messages either way',
        params: userParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await messages.block(await requireActor(request), request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/blocks/:userId',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Unblocks a user',
        params: userParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await messages.unblock(await requireActor(request), request.params.userId);
      return reply.code(204).send(null);
    },
  );
};

export default messagesRoutes;
