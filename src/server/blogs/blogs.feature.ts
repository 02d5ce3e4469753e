import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { registerBlogRenderingJob } from './blog-rendering.job.js';
import { blogEditorRoutes } from './blog-editor.routes.js';
import { blogRoutes, blogSignedInRoutes } from './blogs.routes.js';
import { postsSignedInRoutes, reviewRoutes } from './posts.routes.js';
import { registerScheduledPublishing } from './scheduled-publishing.js';
import { micropubLinkHeader, micropubRoutes } from './micropub.routes.js';

/** Blogs: reading, writing, the editor, rendering at start-up and scheduled publishing. */
export const blogsFeature = defineFeature({
  name: 'blogs',
  hooks: {
    // Micropub's discovery by HTTP header, on the home page (issue 60); every page links it in its head.
    first: ({ app, deps }) => {
      const link = micropubLinkHeader(deps.config.publicUrl);
      app.addHook('onSend', async (request, reply) => {
        if ((request.method === 'GET' || request.method === 'HEAD') && (request.url === '/' || request.url.startsWith('/?'))) reply.header('link', link);
      });
    },
  },
  routes: ({ deps }) => [
    { visitors: 'anyone', plugin: routes(blogRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(blogSignedInRoutes, deps) },
    { visitors: 'blog writing', plugin: routes(blogEditorRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(postsSignedInRoutes, deps) },
    { visitors: 'blog editing', plugin: routes(reviewRoutes, deps) },
    // Micropub: an app's token (IndieAuth), not a session, says who writes.
    { visitors: 'anyone, outside the API', plugin: routes(micropubRoutes, deps) },
  ],
  jobs: ({ jobs, deps }) => {
    registerBlogRenderingJob(jobs, { db: deps.db, storage: deps.storage });
    registerScheduledPublishing(deps.queue, { db: deps.db });
  },
});
