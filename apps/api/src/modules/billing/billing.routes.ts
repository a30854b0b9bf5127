/** Billing routes (SPEC.md §7): plan, membership start, card, membership summary and silver. */
import { z } from 'zod';
import { errorAnswer, userAnswer } from '@bountyhunt/shared/users';
import {
  cardSchema,
  membershipAnswer,
  PAYMENT_MSG,
  silverAnswer,
  silverQuery,
} from '@bountyhunt/shared/billing';
import { ROLE } from '@bountyhunt/shared/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireRole } from '../../plugins/auth';
import { digits } from '@bountyhunt/shared/numbers';

/** Card attempts per member: stops a stolen session from testing card numbers. */
const CARD_ATTEMPTS = { limit: 20, windowMs: 3600_000 };

const errors = {
  400: errorAnswer,
  401: errorAnswer,
  402: errorAnswer,
  403: errorAnswer,
  429: errorAnswer,
};

const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { billing } = app.root.services;
  const { rateLimiter } = app.root;

  app.put(
    '/user/membership/:planIndex',
    {
      schema: {
        tags: ['billing'],
        summary:
          'Choose a plan (0 Standard, 1 Premium, 2 Deluxe); while active it applies at the next renewal',
        security: [{ bearer: [] }],
        params: z.object({
          planIndex: digits(
            z
              .number({ error: PAYMENT_MSG.planInvalid })
              .int(PAYMENT_MSG.planInvalid)
              .min(0, PAYMENT_MSG.planInvalid)
              .max(2, PAYMENT_MSG.planInvalid),
          ),
        }),
        response: { 200: userAnswer, ...errors },
      },
    },
    async (request) => {
      const actor = await requireRole(request, ROLE.member);
      return billing.choosePlan(actor, request.params.planIndex);
    },
  );

  app.post(
    '/user/membership',
    {
      schema: {
        tags: ['billing'],
        summary:
          'Start or restart the membership: charges the plan price, active one month ahead, credits the plan silver',
        description:
          'An optional Idempotency-Key header makes a retried request answer like the first one and never charge twice.',
        security: [{ bearer: [] }],
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: cardSchema,
        response: { 200: userAnswer, ...errors },
      },
    },
    async (request) => {
      const actor = await requireRole(request, ROLE.member);
      await rateLimiter.consume(request.ip, `card:${actor.userId}`, CARD_ATTEMPTS);
      return billing.startMembership(actor, request.body, request.headers['idempotency-key']);
    },
  );

  app.put(
    '/user/card',
    {
      schema: {
        tags: ['billing'],
        summary:
          'Replace the card on file (only brand, last four, expiry and a gateway token are kept)',
        security: [{ bearer: [] }],
        body: cardSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = await requireRole(request, ROLE.member);
      await rateLimiter.consume(request.ip, `card:${actor.userId}`, CARD_ATTEMPTS);
      await billing.replaceCard(actor, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/user/membership',
    {
      schema: {
        tags: ['billing'],
        summary: 'Membership status, plan, pending plan change, card on file and renewal retries',
        security: [{ bearer: [] }],
        response: { 200: membershipAnswer, ...errors },
      },
    },
    async (request) => billing.summary(await requireRole(request, ROLE.member)),
  );

  app.get(
    '/user/silver',
    {
      schema: {
        tags: ['billing'],
        summary: 'Silver balance and its history, newest first',
        security: [{ bearer: [] }],
        querystring: silverQuery,
        response: { 200: silverAnswer, ...errors },
      },
    },
    async (request) => billing.silver(await requireRole(request, ROLE.member), request.query),
  );
};

export default billingRoutes;
