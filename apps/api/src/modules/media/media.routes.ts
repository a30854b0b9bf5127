import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Media routes (SPEC.md §7). Filled in by the media feature. */
const mediaRoutes: FastifyPluginAsyncZod = async (_app) => {};

export default mediaRoutes;
