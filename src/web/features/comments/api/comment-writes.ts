import type { QueryClient } from '@tanstack/react-query';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';
import { getCommentsQueryOptions } from './get-comments';

/**
 * After any comment write the blog's comments are fetched again, so they appear in place; a new
 * or deleted comment also moves the count the blog and every card show, so those are refreshed.
 */
export async function afterCommentWrite(queryClient: QueryClient, blogId: string, { countChanged }: { countChanged: boolean }) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: getCommentsQueryOptions(blogId).queryKey }),
    ...(countChanged ? [queryClient.invalidateQueries({ queryKey: blogQueryKeys.detail(blogId) }), invalidateBlogLists(queryClient)] : []),
  ]);
}
