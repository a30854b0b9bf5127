import { currentUserAnswer, errorAnswer, userAnswer } from '@bountyhunt/shared/users';
import { registerSchema } from '@bountyhunt/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../../plugins/auth';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'Register a member, or a creator with hunter: true',
        body: registerSchema,
        response: { 200: userAnswer, 400: errorAnswer, 406: errorAnswer, 429: errorAnswer },
      },
    },
    async (request) => {
      await app.root.rateLimiter.consume(
        request.ip,
        `register-ip:${request.ip}`,
        app.root.config.rateLimits.registerIp,
      );
      return app.root.services.users.register(request.body);
    },
  );

  app.get(
    '/user',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user and, for creators, their hunter profile',
        security: [{ bearer: [] }],
        response: { 200: currentUserAnswer, 401: errorAnswer },
      },
    },
    async (request) => app.root.services.users.current(await requireActor(request)),
  );
};

export default usersRoutes;
