import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { inlineImageRoutes } from './inline-images.routes.js';

/** Images inside a blog's text: uploading them from the editor. */
export const inlineImagesFeature = defineFeature({
  name: 'inline-images',
  routes: ({ deps }) => [{ visitors: 'blog writing', plugin: routes(inlineImageRoutes, deps) }],
});
