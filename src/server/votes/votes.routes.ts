import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../app.js';

// Not yet written: the feature's routes land here.
export const voteRoutes: FastifyPluginAsyncZod<AppDeps> = async () => {};
