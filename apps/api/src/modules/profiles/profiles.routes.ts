import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Profiles routes (SPEC.md §7). Filled in by the profiles feature. */
const profilesRoutes: FastifyPluginAsyncZod = async (_app) => {};

export default profilesRoutes;
