import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';
import { createdDate } from './blog-dates';

/**
 * Stored images are at most 1600 px wide; the box is fixed at 16:9 (see `.blog-card-image`),
 * so the card keeps its size while the image loads.
 */
export const CARD_IMAGE_WIDTH = 1600;
export const CARD_IMAGE_HEIGHT = 900;

/** One blog in a list (home, search): author, title, body, image, link, counts, date. */
export function BlogCard({ blog }: { blog: Blog }) {
  const titleId = useId();
  return (
    <Card className="mb-4" as="article" aria-labelledby={titleId}>
      <Card.Header>Author: {blog.author}</Card.Header>
      <Card.Body>
        <Card.Title as="h2" className="h4" id={titleId}>
          {blog.title}
        </Card.Title>
        <Card.Text className="blog-body">{blog.blog}</Card.Text>
        {blog.imageUrl && (
          <img
            src={blog.imageUrl}
            alt={`Image of the blog ${blog.title}`}
            loading="lazy"
            decoding="async"
            width={CARD_IMAGE_WIDTH}
            height={CARD_IMAGE_HEIGHT}
            className="blog-card-image d-block mb-3 rounded"
          />
        )}
        <Link className="btn btn-primary" to={`/viewBlog?id=${encodeURIComponent(blog.id)}`} aria-describedby={titleId}>
          View this Blog
        </Link>
        <div className="d-flex flex-wrap gap-3 mt-3">
          <span>Upvote Count: {blog.upvotes}</span>
          <span>Downvote Count: {blog.downvotes}</span>
        </div>
      </Card.Body>
      <Card.Footer className="text-body-secondary">Created {createdDate(blog.createdAt)}</Card.Footer>
    </Card>
  );
}
