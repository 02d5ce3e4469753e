import type { Blog } from '../../../../shared/blog-schema';

/** The blog's vote counts; the vote buttons arrive with the votes feature. */
export function VoteButtons({ blog }: { blog: Blog }) {
  return (
    <div className="d-flex gap-3">
      <span>Upvote Count: {blog.upvotes}</span>
      <span>Downvote Count: {blog.downvotes}</span>
    </div>
  );
}
