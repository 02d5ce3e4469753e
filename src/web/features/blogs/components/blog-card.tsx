import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { Blog } from '../../../../shared/blog-schema';

/** One blog in a list (home, search): author, title, body, image, link, counts, date. */
export function BlogCard({ blog }: { blog: Blog }) {
  return (
    <Card className="mb-4" as="article">
      <Card.Header>Author: {blog.author}</Card.Header>
      <Card.Body>
        <Card.Title as="h2" className="h4">{blog.title}</Card.Title>
        <Card.Text className="blog-body">{blog.blog}</Card.Text>
        {blog.imageUrl && <img src={blog.imageUrl} alt={blog.title} loading="lazy" width={800} height={450} className="blog-card-image mb-3" />}
        <Link className="btn btn-primary" to={`/viewBlog?id=${blog.id}`}>View this Blog</Link>
        <div className="d-flex gap-3 mt-3">
          <span>Upvote Count: {blog.upvotes}</span>
          <span>Downvote Count: {blog.downvotes}</span>
        </div>
      </Card.Body>
      <Card.Footer className="text-muted">Created {blog.createdAt.split('T')[0]}</Card.Footer>
    </Card>
  );
}
