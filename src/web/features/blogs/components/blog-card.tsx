import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { BlogSummary, SnippetPart } from '../../../../shared/blog-schema';
import { paths } from '../../../../shared/paths';
import { createdDate } from './blog-dates';
import { BlogImage } from './blog-image';
import { BlogTags } from './blog-tags';

/**
 * One blog in a list (home, search, author and tag pages): author (a link to their page), title,
 * the body's excerpt (so a card is as tall for a long blog as for a short one), or for a search in
 * text the `snippet` around the matched words, the tags, image, link, counts, date, in the spec's
 * order. The cover is cropped to 16:9: beside the text from the md breakpoint up, under the
 * excerpt on a phone (`.blog-card` in styles.css), so a screen shows several posts. `priority`
 * goes to the first card of a list: its image is likely the largest thing on screen.
 */
export function BlogCard({ blog, priority = false, snippet }: { blog: BlogSummary; priority?: boolean; snippet?: readonly SnippetPart[] }) {
  const titleId = useId();
  const hasImage = Boolean(blog.image?.url ?? blog.imageUrl);
  return (
    <Card className={`blog-card mb-4${hasImage ? ' blog-card-with-image' : ''}`} as="article" aria-labelledby={titleId}>
      <Card.Header>
        <Link to={paths.author(blog.userId)} className="link-body-emphasis">
          Author: {blog.author}
        </Link>
      </Card.Header>
      <Card.Body>
        <Card.Title as="h2" className="h4" id={titleId}>
          {blog.title}
        </Card.Title>
        <Card.Text className="blog-excerpt">{snippet ? <Snippet parts={snippet} /> : blog.excerpt}</Card.Text>
        <BlogTags tags={blog.tags} />
        <BlogImage blog={blog} fit="cover" priority={priority} />
        <Link className="btn btn-primary blog-card-action" to={paths.viewBlog(blog.id)} aria-describedby={titleId}>
          View this Blog
        </Link>
        <div className="blog-card-counts d-flex flex-wrap gap-3 mt-3">
          <span>Upvote Count: {blog.upvotes}</span>
          <span>Downvote Count: {blog.downvotes}</span>
          <span>Comments: {blog.commentCount}</span>
        </div>
      </Card.Body>
      <Card.Footer className="text-body-secondary">Created {createdDate(blog.createdAt)}</Card.Footer>
    </Card>
  );
}

/** A snippet's parts as text (React escapes every one), the matched words marked. */
function Snippet({ parts }: { parts: readonly SnippetPart[] }) {
  return parts.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>));
}
