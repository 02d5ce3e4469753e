import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { voteRoutes } from './votes.routes.js';

/** Votes on blogs. */
export const votesFeature = defineFeature({
  name: 'votes',
  routes: ({ deps }) => [{ visitors: 'signed-in', plugin: routes(voteRoutes, deps) }],
});
