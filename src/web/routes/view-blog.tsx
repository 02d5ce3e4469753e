import { useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useRevalidator, useSearchParams } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { getBlogQueryOptions } from '../features/blogs/api/get-blog';
import { BlogDetails } from '../features/blogs/components/blog-details';
import { getCommentsQueryOptions } from '../features/comments/api/get-comments';
import { CommentSection } from '../features/comments/components/comment-section';
import { VoteButtons } from '../features/votes/components/vote-buttons';
import { useSession } from '../lib/session';
import { loadQuery, routeError } from '../lib/load-query';
import { absoluteImageUrl, describe, SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

const idOf = (url: URL) => url.searchParams.get('id') ?? '';

/**
 * The page is rendered for an anonymous visitor, to whom a draft does not exist. Once the browser
 * knows a signed-in viewer, the blog is asked for once more with their session: its owner then
 * sees their draft; anyone else still gets 404.
 */
function useRetryAsSignedInViewer() {
  const { data: session, isPending } = useSession();
  const revalidator = useRevalidator();
  const retried = useRef(false);
  useEffect(() => {
    if (isPending || !session || retried.current) return;
    retried.current = true;
    void revalidator.revalidate();
  }, [isPending, session, revalidator]);
}

function BlogDoesNotExist() {
  useRetryAsSignedInViewer();
  return (
    <div className="py-4">
      <h1 className="h3">{messages.blogDoesNotExist}</h1>
      <Link to={paths.home()}>Go to the home page</Link>
    </div>
  );
}

/** /viewBlog?id= : one blog, with Edit Blog and Delete Blog for its owner, and its comments below. */
function ViewBlogPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const { data: blog } = useSuspenseQuery(getBlogQueryOptions(id));
  const { data: session } = useSession();
  return (
    <>
      <BlogDetails blog={blog} isOwner={session?.user.id === blog.userId} votes={<VoteButtons blog={blog} />} />
      {/* The id as the loader used it, so the comments are the ones it loaded. */}
      <CommentSection blogId={id} blogOwnerId={blog.userId} />
    </>
  );
}

export const viewBlogScreen: Screen = {
  Component: ViewBlogPage,
  loader: (queryClient) => async ({ request }) => {
    const id = idOf(new URL(request.url));
    // A missing id cannot name a blog: no request needed. A malformed one is the API's to refuse
    // (404, the same message), which keeps zod out of this screen's code.
    if (!id) throw routeError(404, messages.blogDoesNotExist);
    // The comments are in the page's HTML too, for readers without JavaScript; both load at once.
    await Promise.all([loadQuery(queryClient, getBlogQueryOptions(id)), loadQuery(queryClient, getCommentsQueryOptions(id))]);
    return null;
  },
  meta: ({ url, queryClient, site }) => {
    const id = idOf(url);
    const blog = id ? queryClient.getQueryData(getBlogQueryOptions(id).queryKey) : undefined;
    if (!blog) return { title: messages.blogDoesNotExist, description: SITE_DESCRIPTION, path: paths.viewBlog(id) };
    const canonical = paths.viewBlog(blog.id);
    // The 1200 × 630 crop made for previews, else the image itself (until the backfill made one).
    const preview = blog.image?.ogUrl ?? blog.imageUrl;
    const image = preview ? absoluteImageUrl(site, preview) : null;
    return {
      title: blog.title,
      description: describe(blog.excerpt),
      path: canonical,
      type: 'article',
      image,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: blog.title,
        datePublished: blog.createdAt,
        dateModified: blog.updatedAt,
        author: { '@type': 'Person', name: blog.author },
        ...(image ? { image } : {}),
        url: `${site.publicUrl}${canonical}`,
        mainEntityOfPage: `${site.publicUrl}${canonical}`,
      },
    };
  },
  loadError: 'The blog could not be loaded.',
  NotFound: BlogDoesNotExist,
};
