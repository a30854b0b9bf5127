import { authAnswer, loginSchema } from '@bountyhunt/shared/auth';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../errors';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.root.config.rateLimits;

  app.post(
    '/auth',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        body: loginSchema,
        response: { 200: authAnswer, 400: errorAnswer, 429: errorAnswer },
      },
    },
    async (request) => {
      const { email, password } = request.body;
      const emailKey = `login-email:${email.trim().toLowerCase()}`;
      await app.root.rateLimiter.consume(request.ip, `login-ip:${request.ip}`, limits.loginIp);
      await app.root.rateLimiter.check(request.ip, emailKey, limits.loginEmail);
      try {
        return await app.root.services.auth.login(email, password, request.ip);
      } catch (err) {
        await app.root.rateLimiter.record(request.ip, emailKey, limits.loginEmail);
        throw err;
      }
    },
  );

  app.delete(
    '/auth/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session of this token',
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 204: z.null(), 400: errorAnswer },
      },
    },
    async (request, reply) => {
      if (!request.params.token.trim()) throw badRequest('Missing token.');
      await app.root.services.auth.logout(request.params.token);
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
