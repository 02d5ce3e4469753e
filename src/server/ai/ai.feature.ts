import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { aiRoutes } from './ai.routes.js';

/** The AI generator. */
export const aiFeature = defineFeature({
  name: 'ai',
  routes: ({ deps }) => [{ visitors: 'signed-in', plugin: routes(aiRoutes, deps) }],
});
