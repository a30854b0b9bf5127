import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Billing routes (SPEC.md §7). Filled in by the billing feature. */
const billingRoutes: FastifyPluginAsyncZod = async (_app) => {};

export default billingRoutes;
