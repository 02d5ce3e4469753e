import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { paths } from '../../../../shared/paths';
import { createdDate } from './blog-dates';
import { BlogImage } from './blog-image';

/**
 * One blog in a list (home, search): author, title, body, image, link, counts, date.
 * `priority` goes to the first card of a list: its image is likely the largest thing on screen.
 */
export function BlogCard({ blog, priority = false }: { blog: Blog; priority?: boolean }) {
  const titleId = useId();
  return (
    <Card className="mb-4" as="article" aria-labelledby={titleId}>
      <Card.Header>Author: {blog.author}</Card.Header>
      <Card.Body>
        <Card.Title as="h2" className="h4" id={titleId}>
          {blog.title}
        </Card.Title>
        <Card.Text className="blog-body">{blog.blog}</Card.Text>
        <BlogImage blog={blog} fit="cover" priority={priority} />
        <Link className="btn btn-primary" to={paths.viewBlog(blog.id)} aria-describedby={titleId}>
          View this Blog
        </Link>
        <div className="d-flex flex-wrap gap-3 mt-3">
          <span>Upvote Count: {blog.upvotes}</span>
          <span>Downvote Count: {blog.downvotes}</span>
          <span>Comments: {blog.commentCount}</span>
        </div>
      </Card.Body>
      <Card.Footer className="text-body-secondary">Created {createdDate(blog.createdAt)}</Card.Footer>
    </Card>
  );
}
