import type { Kysely } from 'kysely';
import type { Blog } from '../../shared/blog-schema.js';
import { absoluteUrl, paths } from '../../shared/paths.js';
import type { WebhookEvent } from '../../shared/webhook-schema.js';
import type { BlogEvent, BlogTransition } from '../core/blog-events.js';
import { toBlogJson } from '../core/blog-json.js';
import { findBlogRow } from '../core/blog-rows.repository.js';
import { isPublicBlog } from '../core/blog-events.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { accountForWebhook, commentForWebhook } from './webhooks.repository.js';

/**
 * The bodies webhooks send, in Ghost's shape: `{ "<resource>": { "current": {...}, "previous": {...} } }`.
 * A post is the blog JSON the API and the pages use (`core/blog-json.ts`) with its absolute `url`,
 * never a table row. `previous` carries only what is known without keeping old versions: nothing
 * for a publish or an edit, `{ status: "published" }` for an unpublish, and for a deletion (when
 * the row is already gone) the post's id and author.
 */

export interface PayloadDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  publicUrl: string;
}

export type WebhookPost = Blog & { url: string };

export const POST_EVENT_FOR: Record<BlogTransition, WebhookEvent> = {
  published: 'post.published',
  edited: 'post.published.edited',
  unpublished: 'post.unpublished',
  deleted: 'post.deleted',
};

async function postNow(deps: PayloadDeps, blogId: string, authorId: string): Promise<WebhookPost | null> {
  // As its author sees it: an unpublished blog is still there for them (a draft, or hidden).
  const row = await findBlogRow(deps.db, authorId, blogId);
  if (!row) return null;
  // `myVote` would be the author's own: a receiver is no viewer.
  // The owner's own integrations, like /admin: authors by e-mail whatever the public pages show.
  return { ...toBlogJson(row, deps.storage, 'email'), myVote: null, url: absoluteUrl(deps.publicUrl, paths.blog(row.slug)) };
}

export async function postEventPayload(deps: PayloadDeps, event: BlogEvent): Promise<Record<string, unknown>> {
  const gone = { id: event.blogId, userId: event.userId, handle: event.handle };
  if (event.transition === 'deleted') return { post: { current: {}, previous: gone } };
  const current = (await postNow(deps, event.blogId, event.userId)) ?? gone;
  const previous = event.transition === 'unpublished' ? { status: 'published' } : {};
  return { post: { current, previous } };
}

/** Null when there is nothing to tell: the comment is gone, hidden, or on a blog readers cannot see. */
export async function commentAddedPayload(deps: PayloadDeps, commentId: string): Promise<Record<string, unknown> | null> {
  const row = await commentForWebhook(deps.db, commentId);
  if (!row || row.hidden_at !== null || row.author_suspended_at !== null) return null;
  const blog = await findBlogRow(deps.db, null, row.blog_id);
  if (!blog || !isPublicBlog(blog)) return null;
  return {
    comment: {
      current: {
        id: row.id,
        blogId: row.blog_id,
        parentId: row.parent_id,
        userId: row.user_id,
        author: row.email ?? row.remote_author_name ?? '',
        body: row.body,
        html: row.html,
        createdAt: new Date(row.created_at).toISOString(),
        post: { id: row.blog_id, title: row.blog_title, url: absoluteUrl(deps.publicUrl, paths.blog(blog.slug)) },
      },
      previous: {},
    },
  };
}

export async function memberAddedPayload(deps: PayloadDeps, userId: string): Promise<Record<string, unknown> | null> {
  const row = await accountForWebhook(deps.db, userId);
  if (!row) return null;
  return {
    member: {
      current: { id: row.id, email: row.email, name: row.display_name ?? row.name, handle: row.handle, createdAt: new Date(row.createdAt).toISOString() },
      previous: {},
    },
  };
}

/** 'Send test': the event's shape with made-up values, marked `test: true`. */
export function testPayload(publicUrl: string, event: WebhookEvent): Record<string, unknown> {
  const at = new Date().toISOString();
  const post = { id: '00000000-0000-4000-8000-000000000000', title: 'A test from the blog', slug: 'a-test-from-the-blog', author: 'someone@example.com', status: 'published', createdAt: at, updatedAt: at, url: absoluteUrl(publicUrl, paths.blog('a-test-from-the-blog')) };
  const entity =
    event.startsWith('post.')
      ? { post: event === 'post.deleted' ? { current: {}, previous: { id: post.id } } : { current: post, previous: event === 'post.unpublished' ? { status: 'published' } : {} } }
      : event === 'comment.added'
        ? { comment: { current: { id: '00000000-0000-4000-8000-000000000001', blogId: post.id, body: 'A test comment.', author: 'someone@example.com', createdAt: at, post: { id: post.id, title: post.title, url: post.url } }, previous: {} } }
        : { member: { current: { id: 'test', email: 'someone@example.com', name: 'Someone', handle: 'someone', createdAt: at }, previous: {} } };
  return { test: true, ...entity };
}
