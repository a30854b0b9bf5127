import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Bounties routes (SPEC.md §7). Filled in by the bounties feature. */
const bountiesRoutes: FastifyPluginAsyncZod = async (_app) => {};

export default bountiesRoutes;
