import { routes } from '../core/visitor-contexts.js';
import { defineFeature } from '../feature.js';
import { registerBlogRenderingJob } from './blog-rendering.job.js';
import { blogEditorRoutes } from './blog-editor.routes.js';
import { blogRoutes, blogSignedInRoutes } from './blogs.routes.js';
import { postsSignedInRoutes, reviewRoutes } from './posts.routes.js';
import { registerScheduledPublishing } from './scheduled-publishing.js';

/** Blogs: reading, writing, the editor, rendering at start-up and scheduled publishing. */
export const blogsFeature = defineFeature({
  name: 'blogs',
  routes: ({ deps }) => [
    { visitors: 'anyone', plugin: routes(blogRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(blogSignedInRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(blogEditorRoutes, deps) },
    { visitors: 'signed-in', plugin: routes(postsSignedInRoutes, deps) },
    { visitors: 'blog editing', plugin: routes(reviewRoutes, deps) },
  ],
  jobs: ({ jobs, deps }) => {
    registerBlogRenderingJob(jobs, { db: deps.db, storage: deps.storage });
    registerScheduledPublishing(deps.queue, { db: deps.db });
  },
});
