import type { NewJob } from '../queue/job-queue.js';

/**
 * A blog announced to its subscribers: queued by the subscriptions' consumer of the blog events
 * when a blog first becomes public. Its key is the blog's, so a blog is announced once however
 * often it is edited, or unpublished and published again. Kept by the queue's cleanup for good.
 */
export const BLOG_PUBLISHED_JOB = 'blog-published';

export const blogPublishedJob = (blogId: string): NewJob => ({ kind: BLOG_PUBLISHED_JOB, key: `${BLOG_PUBLISHED_JOB}:${blogId}`, payload: { blogId } });
