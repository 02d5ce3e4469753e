import { LISTS_TAG, blogTag } from '../../shared/cache-tags.js';
import type { BlogEvents } from './blog-events.js';
import type { ContentChanges } from '../cache/content-changes.js';

/**
 * The response cache hears the blogs' lifecycle (`core/blog-events.ts`): a blog that appeared,
 * changed or went drops the lists and its own answers, in this process and (by the invalidation's
 * notice) in every other. A write made by a request has already dropped them as it answered (its
 * route's `changes`), so its reader sees the change at once; the event covers every write made
 * outside a request (a scheduled publish, an import, a suspension) and a process that died between
 * its commit and its notice.
 */
export function invalidateOnBlogEvents(blogEvents: BlogEvents, contentChanges: ContentChanges): void {
  blogEvents.subscribe({
    name: 'response-cache',
    handle: (event) => contentChanges.changed([LISTS_TAG, blogTag(event.blogId)]),
  });
}
