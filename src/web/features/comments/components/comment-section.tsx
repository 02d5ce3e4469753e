import { useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { Comment, CommentThread } from '../../../../shared/comment-schema';
import { paths } from '../../../../shared/paths';
import { useSession } from '../../../lib/session';
import { useCreateComment } from '../api/create-comment';
import { useComments } from '../api/get-comments';
import { CommentForm } from './comment-form';
import { CommentItem, type CommentViewer } from './comment-item';

/**
 * The comments under a blog: 'Comments ({n})', the threads oldest first with one level of
 * replies, and the form to add one. The list is in the server's HTML (the route's loader fills
 * the query); what depends on the viewer (the form, Reply, Edit and Delete) appears once the
 * browser knows the session, as the vote buttons do.
 */
export function CommentSection({
  blogId,
  blogOwnerId,
  reportControl,
}: {
  blogId: string;
  blogOwnerId: string;
  /** The route's 'Report' control for someone else's comment (the moderation feature's). */
  reportControl?: (comment: Comment) => ReactNode;
}) {
  const { data: comments } = useComments(blogId);
  const { data: session } = useSession();
  const createComment = useCreateComment(blogId);
  const viewer: CommentViewer | null = session ? { userId: session.user.id, ownsBlog: session.user.id === blogOwnerId } : null;

  return (
    // The article's column (`.reading-column`): the heading, author lines, texts and forms line up with the blog above.
    <section className="reading-column mt-4" aria-labelledby="comments-heading">
      <h2 className="h4" id="comments-heading">
        Comments ({comments.count})
      </h2>
      <CommentList items={comments.items} className="list-unstyled comment-list" itemClassName="border-top pt-3 mt-3">
        {(thread) => <Thread blogId={blogId} thread={thread} viewer={viewer} reportControl={reportControl} />}
      </CommentList>
      <div className="mt-3">
        {viewer ? (
          <CommentForm
            id="new-comment"
            label="Add a comment"
            submitLabel="Post comment"
            clearOnSuccess
            onSubmit={(body) => createComment.mutateAsync({ body })}
          />
        ) : (
          // Also what the server renders: pages are rendered for an anonymous visitor.
          <p>
            <Link to={paths.auth()}>Sign in to comment</Link>
          </p>
        )}
      </div>
    </section>
  );
}

function Thread({
  blogId,
  thread,
  viewer,
  reportControl,
}: {
  blogId: string;
  thread: CommentThread;
  viewer: CommentViewer | null;
  reportControl?: (comment: Comment) => ReactNode;
}) {
  const [replying, setReplying] = useState(false);
  const createComment = useCreateComment(blogId);
  const replyButton = viewer && !replying && (
    <Button size="sm" variant="outline-secondary" onClick={() => setReplying(true)}>
      Reply
    </Button>
  );
  return (
    <CommentItem blogId={blogId} comment={thread} viewer={viewer} actions={replyButton} reportControl={reportControl}>
      <CommentList items={thread.replies} className="list-unstyled ms-4 ps-3 border-start comment-replies" itemClassName="mt-2">
        {(reply) => <CommentItem blogId={blogId} comment={reply} viewer={viewer} reportControl={reportControl} />}
      </CommentList>
      {viewer && replying && (
        <div className="ms-4 ps-3 mt-2">
          <CommentForm
            id={`reply-${thread.id}`}
            label="Add a reply"
            submitLabel="Post reply"
            autoFocus
            onSubmit={async (body) => {
              await createComment.mutateAsync({ body, parentId: thread.id });
              setReplying(false);
            }}
            onCancel={() => setReplying(false)}
          />
        </div>
      )}
    </CommentItem>
  );
}

/** The comments, or a comment's replies, one list item each; nothing at all when there are none. */
function CommentList<Item extends { id: string }>({
  items,
  className,
  itemClassName,
  children,
}: {
  items: Item[];
  className: string;
  itemClassName: string;
  children: (item: Item) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <ol className={className}>
      {items.map((item) => (
        <li key={item.id} className={itemClassName}>
          {children(item)}
        </li>
      ))}
    </ol>
  );
}
