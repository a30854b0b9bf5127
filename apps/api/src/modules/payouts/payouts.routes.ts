/**
 * Payouts (issue 18): the hunter's earnings and tax forms (role 2), and the console's payout
 * runs and 1099-NEC forms (admins past the second factor; the gate answers before the body).
 */
import {
  adminTaxFormsAnswer,
  earningsAnswer,
  payoutBatchAnswer,
  payoutBatchDetailAnswer,
  payoutBatchesQuery,
  payoutBatchItem,
  payoutIdParams,
  payoutItem,
  payoutPreviewAnswer,
  payoutReturnSchema,
  taxFormsAnswer,
  taxFormsGeneratedAnswer,
  taxYearParams,
} from '@bountyhunt/shared/payouts';
import { ROLE } from '@bountyhunt/shared/roles';
import { errorAnswer } from '@bountyhunt/shared/users';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPage } from '../../lib/paging';
import { optionalActor, requireRole } from '../../plugins/auth';

const errors = {
  400: errorAnswer,
  401: errorAnswer,
  403: errorAnswer,
  404: errorAnswer,
  409: errorAnswer,
};

/** A file to save, never cached by a browser or proxy. */
function download(reply: FastifyReply, type: string, name: string, body: string | Uint8Array) {
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(typeof body === 'string' ? body : Buffer.from(body));
}

const payoutsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { admin, payouts } = app.root.services;
  const hunterOnly = async (request: FastifyRequest) =>
    void (await requireRole(request, ROLE.hunter));
  const gate = async (request: FastifyRequest) => admin.gate(await optionalActor(request));
  const gated = async (request: FastifyRequest) => void (await gate(request));

  app.get(
    '/user/earnings',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['payouts'],
        summary: "The hunter's balances, weekly earnings, payouts and what is missing for payouts",
        response: { 200: earningsAnswer, ...errors },
      },
    },
    async (request) => payouts.earnings(await requireRole(request, ROLE.hunter)),
  );

  app.get(
    '/user/tax-forms',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['payouts'],
        summary: "The hunter's Forms 1099-NEC, newest year first",
        response: { 200: taxFormsAnswer, ...errors },
      },
    },
    async (request) => payouts.taxForms(await requireRole(request, ROLE.hunter)),
  );

  app.get(
    '/user/tax-forms/:year/pdf',
    {
      onRequest: hunterOnly,
      schema: {
        tags: ['payouts'],
        summary: 'Form 1099-NEC Copy B of a year, as a PDF',
        params: taxYearParams,
      },
    },
    async (request, reply) => {
      const actor = await requireRole(request, ROLE.hunter);
      const pdf = await payouts.taxFormPdf(actor, request.params.year);
      return download(reply, 'application/pdf', `1099-NEC-${request.params.year}.pdf`, pdf);
    },
  );

  app.get(
    '/admin/payouts/preview',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'Who the next payout run would pay, and who is held back and why',
        response: { 200: payoutPreviewAnswer, ...errors },
      },
    },
    async () => payouts.preview(),
  );

  app.post(
    '/admin/payouts/run',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary:
          'Run payouts now: one payout per qualifying hunter and one NACHA file (409 NOTHING_TO_PAY)',
        response: { 200: payoutBatchAnswer, ...errors },
      },
    },
    async (request) => payouts.runNow(await gate(request), request.ip),
  );

  app.get(
    '/admin/payouts/batches',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'Payout runs, newest first (x-next-cursor)',
        querystring: payoutBatchesQuery,
        response: { 200: z.array(payoutBatchItem), ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await payouts.batches(request.query)),
  );

  app.get(
    '/admin/payouts/batches/:id',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: 'A payout run and its payouts',
        params: payoutIdParams,
        response: { 200: payoutBatchDetailAnswer, ...errors },
      },
    },
    async (request) => payouts.batch(request.params.id),
  );

  app.get(
    '/admin/payouts/batches/:id/file',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: "A payout run's NACHA file as sent (audited)",
        params: payoutIdParams,
      },
    },
    async (request, reply) => {
      const file = await payouts.batchFile(await gate(request), request.params.id, request.ip);
      return download(reply, 'text/plain; charset=us-ascii', file.name, file.text);
    },
  );

  app.post(
    '/admin/payouts/:id/return',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary:
          'Mark a payout returned by the bank: the amount is available again, the hunter is mailed',
        params: payoutIdParams,
        body: payoutReturnSchema,
        response: { 200: payoutItem, ...errors },
      },
    },
    async (request) =>
      payouts.markReturned(await gate(request), request.params.id, request.body.code, request.ip),
  );

  app.get(
    '/admin/tax-forms/:year',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: "The year's Forms 1099-NEC",
        params: taxYearParams,
        response: { 200: adminTaxFormsAnswer, ...errors },
      },
    },
    async (request) => payouts.adminTaxForms(request.params.year),
  );

  app.post(
    '/admin/tax-forms/:year/generate',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: "Make the year's Forms 1099-NEC for every hunter paid at least the threshold",
        params: taxYearParams,
        response: { 200: taxFormsGeneratedAnswer, ...errors },
      },
    },
    async (request) =>
      payouts.generateTaxForms(request.params.year, await gate(request), request.ip),
  );

  app.get(
    '/admin/tax-forms/:year/csv',
    {
      onRequest: gated,
      schema: {
        tags: ['admin'],
        summary: "The year's forms as CSV for e-filing (TIN masked; audited)",
        params: taxYearParams,
      },
    },
    async (request, reply) => {
      const csv = await payouts.taxCsv(await gate(request), request.params.year, request.ip);
      return download(reply, 'text/csv; charset=utf-8', `1099-NEC-${request.params.year}.csv`, csv);
    },
  );
};

export default payoutsRoutes;
