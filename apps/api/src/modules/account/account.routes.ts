import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Account routes (SPEC.md §7). Filled in by the account feature. */
const accountRoutes: FastifyPluginAsyncZod = async (_app) => {};

export default accountRoutes;
