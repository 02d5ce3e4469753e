import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { paths } from '../../../../shared/paths';
import { createdDate } from './blog-dates';
import { BlogImage } from './blog-image';
import { DeleteBlogButton } from './delete-blog-button';

/**
 * The whole blog on its own page; the owner also gets Edit Blog and Delete Blog. The votes come
 * from the route (`votes`), and share one row with the owner's buttons: the row's height is
 * reserved, so nothing moves when they appear after the session is known.
 */
export function BlogDetails({ blog, isOwner, votes }: { blog: Blog; isOwner: boolean; votes: ReactNode }) {
  return (
    <Card as="article" aria-labelledby="blog-title">
      <Card.Header>Author: {blog.author}</Card.Header>
      <Card.Body>
        <Card.Title as="h1" className="h3" id="blog-title">
          {blog.title}
        </Card.Title>
        {/*
          The server rendered the Markdown and sanitised the HTML with an allow-list when the blog
          was saved; it is inserted as it is, so the page renders the same on the server and here.
        */}
        <div className="blog-body blog-article mb-3" dangerouslySetInnerHTML={{ __html: blog.html }} />
        <BlogImage blog={blog} fit="contain" priority />
        <div className="d-flex flex-wrap align-items-center gap-3 blog-actions">
          {votes}
          {isOwner && (
            <div className="d-flex flex-wrap gap-2 ms-auto">
              <Link className="btn btn-primary" to={paths.edit(blog.id)}>
                Edit Blog
              </Link>
              <DeleteBlogButton blog={blog} />
            </div>
          )}
        </div>
      </Card.Body>
      <Card.Footer className="text-body-secondary">Created {createdDate(blog.createdAt)}</Card.Footer>
    </Card>
  );
}
