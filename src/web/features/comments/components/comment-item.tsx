import { useId, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import type { Comment } from '../../../../shared/comment-schema';
import { messages } from '../../../../shared/messages';
import { confirmIrreversible, useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteComment } from '../api/delete-comment';
import { useUpdateComment } from '../api/update-comment';
import { CommentForm } from './comment-form';

/** Who is looking: null for a visitor who is not signed in (and on the server, before hydration). */
export interface CommentViewer {
  userId: string;
  /** The viewer owns the blog, so may delete any comment on it. */
  ownsBlog: boolean;
}

/** The spec shows dates as the part of the timestamp before the 'T'. */
const dateOf = (iso: string) => iso.split('T')[0] ?? iso;

/**
 * One comment: its author, date and text, and for the viewer who may, 'Edit comment' (its
 * author) and 'Delete comment' (its author, or the blog's owner). `children`: its replies and
 * the reply form.
 */
export function CommentItem({
  blogId,
  comment,
  viewer,
  actions,
  reportControl,
  children,
}: {
  /** The blog's id as its page's queries use it. */
  blogId: string;
  comment: Comment;
  viewer: CommentViewer | null;
  actions?: ReactNode;
  /** 'Report', for signed-in readers other than the author. */
  reportControl?: (comment: Comment) => ReactNode;
  children?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  const updateComment = useUpdateComment(blogId);
  const deleteComment = useDeleteComment(blogId);
  const showDialog = useDialog();
  const isAuthor = viewer?.userId === comment.userId;
  const mayDelete = isAuthor || viewer?.ownsBlog === true;
  const report = viewer && !isAuthor ? reportControl?.(comment) : null;
  const Heading = comment.parentId ? 'h4' : 'h3';

  const remove = async () => {
    const confirmed = await showDialog(confirmIrreversible('Delete comment', comment.parentId ? 'Delete this reply? This cannot be undone.' : 'Delete this comment and its replies? This cannot be undone.', 'Delete'));
    if (!confirmed) return;
    try {
      await deleteComment.mutateAsync(comment.id);
    } catch (err) {
      await showDialog({ title: messages.errorTitle, message: errorMessage(err) });
    }
  };

  return (
    <article className="comment" aria-labelledby={headingId}>
      {/* The author line is the comment's heading (an article has one): under 'Comments (n)' for a
          comment, under its comment for a reply. Styled as the small line it always was. */}
      <Heading className="comment-meta mb-1 small text-body-secondary" id={headingId}>
        {comment.remoteAuthorUrl ? (
          // A reply from the fediverse: its author's name links to their profile on their own site.
          <a className="fw-semibold" href={comment.remoteAuthorUrl} rel="nofollow ugc noopener">
            {comment.author}
          </a>
        ) : (
          <span className="fw-semibold text-body">{comment.author}</span>
        )}{' '}
        · <time dateTime={comment.createdAt}>{dateOf(comment.createdAt)}</time>
        {comment.updatedAt !== comment.createdAt && <span> · edited</span>}
      </Heading>
      {comment.hidden && <p className="small text-warning-emphasis mb-1">{messages.hiddenByModerator}</p>}
      {editing ? (
        <CommentForm
          id={`edit-${comment.id}`}
          label="Comment text"
          submitLabel="Save comment"
          initialBody={comment.body}
          autoFocus
          onSubmit={async (body) => {
            await updateComment.mutateAsync({ id: comment.id, body });
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        // Rendered from Markdown and sanitised by the server (no headings, no images), as blogs are.
        <div className="comment-body" dangerouslySetInnerHTML={{ __html: comment.html }} />
      )}
      {!editing && (actions || isAuthor || mayDelete || report) && (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          {actions}
          {isAuthor && (
            <Button size="sm" variant="outline-primary" onClick={() => setEditing(true)}>
              Edit comment
            </Button>
          )}
          {mayDelete && (
            <Button size="sm" variant="outline-danger" disabled={deleteComment.isPending} onClick={() => void remove()}>
              Delete comment
            </Button>
          )}
          {report}
        </div>
      )}
      {children}
    </article>
  );
}
