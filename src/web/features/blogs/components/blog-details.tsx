import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { paths } from '../../../../shared/paths';
import { createdDate, wasEdited } from './blog-dates';
import { BlogImage } from './blog-image';
import { BlogTags } from './blog-tags';
import { DeleteBlogButton } from './delete-blog-button';

/**
 * The whole blog on its own page, laid out as an article: the cover on top, the title (the
 * page's only `h1`: the renderer shifts the body's headings down), a byline, then the body at a
 * reading measure. Under it two rows of reserved height, so nothing moves when their buttons
 * appear after the session is known: the votes (from the route, `votes`), then the viewer's own
 * controls, the owner's Edit Blog and Delete Blog or anyone else's `report` (from the route). The
 * owner's buttons do not fit on the votes' row at the article's width: there they wrapped onto a
 * second line and pushed everything under the blog down.
 */
export function BlogDetails({ blog, isOwner, votes, report }: { blog: Blog; isOwner: boolean; votes: ReactNode; report?: ReactNode }) {
  return (
    <article className="blog-article" aria-labelledby="blog-title">
      <BlogImage blog={blog} fit="contain" priority />
      <header className="mb-4">
        <h1 className="blog-title" id="blog-title">
          {blog.title}
        </h1>
        <p className="blog-byline text-body-secondary mb-0">
          <Link to={paths.author(blog.userId)}>Author: {blog.author}</Link>
          <span>Created {createdDate(blog.createdAt)}</span>
          <span>{blog.readingMinutes} min read</span>
          {wasEdited(blog) && <span>Updated {createdDate(blog.updatedAt)}</span>}
        </p>
        <BlogTags tags={blog.tags} className="mt-2 mb-0" />
      </header>
      {/*
        The server rendered the Markdown and sanitised the HTML with an allow-list when the blog
        was saved; it is inserted as it is, so the page renders the same on the server and here.
      */}
      <div className="blog-body mb-4" dangerouslySetInnerHTML={{ __html: blog.html }} />
      <div className="d-flex flex-wrap align-items-center gap-3 blog-actions">{votes}</div>
      <div className="d-flex flex-wrap align-items-center justify-content-end gap-2 mt-2 blog-actions">
        {isOwner ? (
          <>
            <Link className="btn btn-outline-secondary" to={paths.blogAnalytics(blog.id)}>
              Statistics
            </Link>
            <Link className="btn btn-primary" to={paths.edit(blog.id)}>
              Edit Blog
            </Link>
            <DeleteBlogButton blog={blog} />
          </>
        ) : (
          report
        )}
      </div>
    </article>
  );
}
