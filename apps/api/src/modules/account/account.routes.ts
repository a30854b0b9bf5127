/** Account routes (SPEC.md §7): a user's own settings, the password reset mail, the hunter profile. */
import {
  ACCOUNT_MSG,
  addressSchema,
  bankSchema,
  bioSchema,
  handleSchema,
  nameSchema,
  passwordChangeSchema,
  pictureSchema,
  ssnSchema,
  stagenameSchema,
} from '@bountyhunt/shared/account';
import { currentUserAnswer, errorAnswer, userInData } from '@bountyhunt/shared/users';
import { hunterAnswer } from '@bountyhunt/shared/profiles';
import { AUTH_LIMITS, AUTH_MSG, EMAIL_RE } from '@bountyhunt/shared/auth-texts';
import { resetSchema } from '@bountyhunt/shared/auth';
import { ROLE } from '@bountyhunt/shared/roles';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../errors';
import { requireActor, requireRole } from '../../plugins/auth';

const errors = {
  400: errorAnswer,
  401: errorAnswer,
  403: errorAnswer,
} as const;
const bearer = [{ bearer: [] }];

/** Access is decided before the body is validated: anonymous → 401, wrong role → 403. */
const signedIn = async (request: FastifyRequest) => {
  await requireActor(request);
};
const hunterOnly = async (request: FastifyRequest) => {
  await requireRole(request, ROLE.hunter);
};

const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account } = app.root.services;
  const { rateLimiter } = app.root;
  const limits = app.root.config.rateLimits;

  // ── Everyone signed in: handle, e-mail, password ─────────────────────────────────────────
  app.put(
    '/user/handle',
    {
      onRequest: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Set the public handle (letters and digits, at most 15); 409 when taken',
        security: bearer,
        body: handleSchema,
        response: { 200: currentUserAnswer, ...errors, 409: errorAnswer },
      },
    },
    async (request) => account.setHandle(await requireActor(request), request.body.handle),
  );

  app.put(
    '/user/email/:email',
    {
      onRequest: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Change the sign-in e-mail; 400 invalid, 406 used by another account',
        security: bearer,
        params: z.object({ email: z.string() }),
        response: { 200: userInData, ...errors, 406: errorAnswer },
      },
    },
    async (request) => {
      const actor = await requireActor(request);
      const email = request.params.email.trim();
      if (email.length > AUTH_LIMITS.email || !EMAIL_RE.test(email))
        throw badRequest(ACCOUNT_MSG.emailChangeInvalid, 'EMAIL_INVALID');
      return { user: await account.setEmail(actor, email) };
    },
  );

  app.put(
    '/user/password',
    {
      onRequest: signedIn,
      schema: {
        tags: ['account'],
        summary: 'Change the password; 400 wrong current password; ends the other sessions',
        security: bearer,
        body: passwordChangeSchema,
        response: { 204: z.null(), ...errors, 429: errorAnswer },
      },
    },
    async (request, reply) => {
      const actor = await requireActor(request);
      // Wrong current passwords count like failed sign-ins, so this is no side door for guessing.
      const key = `password-user:${actor.userId}`;
      await rateLimiter.check(request.ip, key, limits.loginEmail);
      try {
        await account.changePassword(actor, request.body.oldPassword, request.body.newPassword);
      } catch (err) {
        await rateLimiter.record(request.ip, key, limits.loginEmail);
        throw err;
      }
      return reply.code(204).send(null);
    },
  );

  // ── Password reset by mail (anonymous) ───────────────────────────────────────────────────
  app.post(
    '/email/password/:email',
    {
      schema: {
        tags: ['account'],
        summary: 'Mail a password reset link; 404 unknown e-mail; 204 sent',
        params: z.object({ email: z.string() }),
        response: {
          204: z.null(),
          400: errorAnswer,
          404: errorAnswer,
          429: errorAnswer,
          503: errorAnswer,
        },
      },
    },
    async (request, reply) => {
      const email = request.params.email.trim().toLowerCase();
      if (email.length > AUTH_LIMITS.email || !EMAIL_RE.test(email))
        throw badRequest(AUTH_MSG.emailInvalidLong, 'EMAIL_INVALID');
      await rateLimiter.consume(request.ip, `reset-ip:${request.ip}`, limits.resetIp);
      await rateLimiter.consume(request.ip, `reset-email:${email}`, limits.resetEmail);
      await account.requestPasswordReset(email);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/user/reset',
    {
      schema: {
        tags: ['account'],
        summary: 'Set a new password with a reset code; 204 success, 400 error',
        body: resetSchema,
        response: { 204: z.null(), 400: errorAnswer },
      },
    },
    async (request, reply) => {
      await account.resetPassword(request.body.resetCode, request.body.newPassword);
      return reply.code(204).send(null);
    },
  );

  // ── Role 2: public profile ───────────────────────────────────────────────────────────────
  app.put(
    '/hunter/bio',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the biography (200); empty or "null" clears it',
        security: bearer,
        body: bioSchema,
        response: { 200: hunterAnswer, ...errors },
      },
    },
    async (request) => account.setBio(await requireRole(request, ROLE.hunter), request.body.bio),
  );

  app.put(
    '/hunter/stagename',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the stage name (30); empty or "null" clears it',
        security: bearer,
        body: stagenameSchema,
        response: { 200: hunterAnswer, ...errors },
      },
    },
    async (request) =>
      account.setStagename(await requireRole(request, ROLE.hunter), request.body.stagename),
  );

  app.put(
    '/hunter/picture',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the profile picture to an uploaded image key',
        security: bearer,
        body: pictureSchema,
        response: { 200: hunterAnswer, ...errors },
      },
    },
    async (request) =>
      account.setPicture(await requireRole(request, ROLE.hunter), request.body.picture),
  );

  // ── Role 2: tax information ──────────────────────────────────────────────────────────────
  app.put(
    '/user/name',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the legal name',
        security: bearer,
        body: nameSchema,
        response: { 200: userInData, ...errors },
      },
    },
    async (request) => ({
      user: await account.setName(
        await requireRole(request, ROLE.hunter),
        request.body.firstName,
        request.body.lastName,
      ),
    }),
  );

  app.put(
    '/user/address',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the tax address',
        security: bearer,
        body: addressSchema,
        response: { 200: userInData, ...errors },
      },
    },
    async (request) => ({
      user: await account.setAddress(await requireRole(request, ROLE.hunter), request.body),
    }),
  );

  app.put(
    '/user/ssn/:ssn',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the SSN (9 digits); stored encrypted, only the last four are returned',
        security: bearer,
        params: ssnSchema,
        response: { 200: userInData, ...errors },
      },
    },
    async (request) => ({
      user: await account.setSsn(await requireRole(request, ROLE.hunter), request.params.ssn),
    }),
  );

  // PUT /user/identity: modules/identity/identity.routes.ts (the review lives there).

  // ── Role 2: banking ──────────────────────────────────────────────────────────────────────
  app.put(
    '/user/bank',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['account'],
        summary: 'Set the direct-deposit account; the number is stored encrypted',
        security: bearer,
        body: bankSchema,
        response: { 200: userInData, ...errors },
      },
    },
    async (request) => ({
      user: await account.setBank(await requireRole(request, ROLE.hunter), request.body),
    }),
  );
};

export default accountRoutes;
