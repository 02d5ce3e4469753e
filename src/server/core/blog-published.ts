import type { NewJob } from '../queue/job-queue.js';

/**
 * The publish hook: a job queued in the transaction that makes a blog public for the first time
 * (created published, or a draft published; a scheduled time reached, once scheduling exists).
 * Its key is the blog's, so a blog is announced once however often it is edited or republished.
 * Whoever reacts to a new blog (the subscription e-mails) handles this job kind.
 */
export const BLOG_PUBLISHED_JOB = 'blog-published';

export const blogPublishedJob = (blogId: string): NewJob => ({ kind: BLOG_PUBLISHED_JOB, key: `${BLOG_PUBLISHED_JOB}:${blogId}`, payload: { blogId } });
