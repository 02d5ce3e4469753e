import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import { LoadingPage } from '../components/loading-page';
import { DoesNotExist } from '../components/not-found-page';
import { redirect, useParams, useSearchParams } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { getBlogQueryOptions } from '../features/blogs/api/get-blog';
import { getBlogAddressQueryOptions } from '../features/blogs/api/get-blog-address';
import { BlogDetails } from '../features/blogs/components/blog-details';
import { getCommentsQueryOptions } from '../features/comments/api/get-comments';
import { CommentSection } from '../features/comments/components/comment-section';
import { ReportButton } from '../features/moderation/components/report-button';
import { SubscribeForm } from '../features/subscriptions/components/subscribe-form';
import { VoteButtons } from '../features/votes/components/vote-buttons';
import type { Blog } from '../../shared/blog-schema';
import { useSession } from '../lib/session';
import { loadQuery, routeError } from '../lib/load-query';
import { absoluteImageUrl, describe, SITE_DESCRIPTION, type PageMeta } from '../lib/page-meta';
import type { SiteInfo } from '../../shared/page-render';
import type { Screen } from '../lib/screen';
import { blogTag } from '../../shared/cache-tags';

const idOf = (url: URL) => url.searchParams.get('id') ?? '';

/**
 * The page is rendered for an anonymous visitor, so a blog only its author may see (a draft, or
 * hidden by a moderator) arrives as 'does not exist'; once the session is known, the blog is asked
 * for with it, and its author is shown it (anyone else still gets 404).
 */
function BlogDoesNotExist() {
  const [searchParams] = useSearchParams();
  return <BlogOnlyItsAuthorSees id={searchParams.get('id') ?? ''} />;
}

/** The same for a readable address: its blog is found with the session too. */
function BlogAtAddressDoesNotExist() {
  const { slug = '' } = useParams();
  const { data: session } = useSession();
  const { data: address } = useQuery({ ...getBlogAddressQueryOptions(slug), enabled: session !== null && slug !== '', retry: false });
  return <BlogOnlyItsAuthorSees id={address?.id ?? ''} />;
}

function BlogOnlyItsAuthorSees({ id }: { id: string }) {
  const { data: session } = useSession();
  const { data: blog } = useQuery({ ...getBlogQueryOptions(id), enabled: session !== null && id !== '', retry: false });
  if (session && blog) {
    return (
      <Suspense fallback={<LoadingPage />}>
        <BlogView blog={blog} viewerId={session.user.id} commentsBlogId={id} />
      </Suspense>
    );
  }
  return <DoesNotExist message={messages.blogDoesNotExist} />;
}

/** /viewBlog?id= : one blog, with Edit Blog and Delete Blog for its owner, the form to get new blogs by e-mail, and its comments below. */
function ViewBlogPage() {
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id') ?? '';
  const { data: blog } = useSuspenseQuery(getBlogQueryOptions(id));
  const { data: session } = useSession();
  return <BlogView blog={blog} viewerId={session?.user.id ?? null} commentsBlogId={id} />;
}

/** /blog/:slug : the same page at the blog's readable address (issue 58); an old address answers 301 to the current one. */
function BlogAtAddressPage() {
  const { slug = '' } = useParams();
  const { data: address } = useSuspenseQuery(getBlogAddressQueryOptions(slug));
  const { data: blog } = useSuspenseQuery(getBlogQueryOptions(address.id));
  const { data: session } = useSession();
  return <BlogView blog={blog} viewerId={session?.user.id ?? null} commentsBlogId={address.id} />;
}

function BlogView({ blog, viewerId, commentsBlogId }: { blog: Blog; viewerId: string | null; commentsBlogId: string }) {
  const isOwner = viewerId === blog.userId;
  return (
    <>
      {blog.hidden && (
        <Alert variant="warning" role="status">
          {messages.hiddenByModerator}
        </Alert>
      )}
      <BlogDetails
        blog={blog}
        isOwner={isOwner}
        votes={<VoteButtons blog={blog} />}
        report={viewerId !== null && <ReportButton targetType="blog" targetId={blog.id} />}
      />
      {/* Above the comments: a signed-in reader's comment form, taller than the link to sign in, would move it.
          In the article's column, as the comments are. */}
      <div className="reading-column">
        <SubscribeForm />
      </div>
      {/* The id as the loader used it, so the comments are the ones it loaded. */}
      <CommentSection
        blogId={commentsBlogId}
        blogOwnerId={blog.userId}
        reportControl={(comment) => <ReportButton targetType="comment" targetId={comment.id} />}
      />
    </>
  );
}

export const viewBlogScreen: Screen = {
  scriptOnFirstTouch: true,
  forTheViewer: true,
  // The blog's own tag: its page changes with the blog and its comments.
  cache: (url) => {
    const id = url.searchParams.get('id');
    return id ? [blogTag(id)] : undefined;
  },
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
    return blogMeta(blog, { site, path: paths.viewBlog(id) });
  },
  loadError: 'The blog could not be loaded.',
  NotFound: BlogDoesNotExist,
};

const slugOf = (url: URL) => {
  try {
    return decodeURIComponent(url.pathname.replace(/^\/blog\//, ''));
  } catch {
    return '';
  }
};

/** /blog/:slug, the blog's canonical address: the page of /viewBlog?id=, found by its slug. */
export const blogAtAddressScreen: Screen = {
  scriptOnFirstTouch: true,
  forTheViewer: true,
  // The blog's own tag, as /viewBlog's: its rename, deletion and comments all name it. The loader
  // says which blog the address names.
  cache: (_url, loaded) => {
    const id = (loaded as { id?: unknown } | null | undefined)?.id;
    return typeof id === 'string' ? [blogTag(id)] : undefined;
  },
  Component: BlogAtAddressPage,
  loader: (queryClient) => async ({ params }) => {
    const slug = params.slug ?? '';
    const address = await loadQuery(queryClient, getBlogAddressQueryOptions(slug));
    // An old address (the title changed since): permanently moved to the current one.
    if (address.slug !== slug) throw redirect(paths.blog(address.slug), 301);
    await Promise.all([loadQuery(queryClient, getBlogQueryOptions(address.id)), loadQuery(queryClient, getCommentsQueryOptions(address.id))]);
    return { id: address.id };
  },
  meta: ({ url, queryClient, site }) => {
    const slug = slugOf(url);
    const address = queryClient.getQueryData(getBlogAddressQueryOptions(slug).queryKey);
    const blog = address ? queryClient.getQueryData(getBlogQueryOptions(address.id).queryKey) : undefined;
    return blogMeta(blog, { site, path: paths.blog(slug) });
  },
  loadError: 'The blog could not be loaded.',
  NotFound: BlogAtAddressDoesNotExist,
};

/** What both addresses of a blog say in their head: the readable address is the canonical one. */
function blogMeta(blog: Blog | undefined, { site, path }: { site: SiteInfo; path: string }): PageMeta {
  if (!blog) return { title: messages.blogDoesNotExist, description: SITE_DESCRIPTION, path };
  const canonical = paths.blog(blog.slug);
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
      publisher: { '@type': 'Organization', name: site.name, ...(site.logoUrl ? { logo: absoluteImageUrl(site, site.logoUrl) } : {}) },
      ...(image ? { image } : {}),
      url: `${site.publicUrl}${canonical}`,
      mainEntityOfPage: `${site.publicUrl}${canonical}`,
    },
  };
}
