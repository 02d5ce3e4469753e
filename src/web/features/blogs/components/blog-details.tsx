import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { VoteButtons } from '../../votes/components/vote-buttons';
import { createdDate } from './blog-dates';
import { BlogImage } from './blog-image';
import { DeleteBlogButton } from './delete-blog-button';

/** The whole blog on its own page; the owner also gets Edit Blog and Delete Blog. */
export function BlogDetails({ blog, isOwner }: { blog: Blog; isOwner: boolean }) {
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
        {blog.imageUrl && <BlogImage src={blog.imageUrl} title={blog.title} fit="contain" />}
        <VoteButtons blog={blog} />
        {isOwner && (
          <div className="d-flex flex-wrap gap-2 mt-3">
            <Link className="btn btn-primary" to={`/edit?id=${encodeURIComponent(blog.id)}`}>
              Edit Blog
            </Link>
            <DeleteBlogButton blog={blog} />
          </div>
        )}
      </Card.Body>
      <Card.Footer className="text-body-secondary">Created {createdDate(blog.createdAt)}</Card.Footer>
    </Card>
  );
}
