import Button from 'react-bootstrap/Button';
import type { Blog, VoteDirection } from '../../../../shared/blog-schema';
import { messages } from '../../../../shared/messages';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useCastVote } from '../api/cast-vote';
import { useRemoveVote } from '../api/remove-vote';

/** The two vote buttons, each in its colour: filled when it is the viewer's vote, outlined otherwise. */
const VOTES = [
  { direction: 'up', label: 'Upvote', variant: 'success' },
  { direction: 'down', label: 'Downvote', variant: 'danger' },
] as const satisfies readonly { direction: VoteDirection; label: string; variant: string }[];

/**
 * The blog's counts for everyone; Upvote and Downvote buttons for signed-in users, pressed on
 * the way they voted, and 'Remove my vote' once they have voted. A refused vote ('You have
 * already upvoted this blog') or any other failure shows in the app's dialog.
 */
export function VoteButtons({ blog }: { blog: Blog }) {
  const { data: session } = useSession();
  const castVote = useCastVote();
  const takeBack = useRemoveVote();
  const showDialog = useDialog();
  const working = castVote.isPending || takeBack.isPending;
  const onError = (error: unknown) => void showDialog({ title: messages.errorTitle, message: errorMessage(error) });

  const vote = (direction: VoteDirection) => {
    castVote.mutate({ blogId: blog.id, direction }, { onError });
  };

  return (
    <div className="d-flex flex-wrap align-items-center gap-3">
      {session && (
        <div className="d-flex gap-2" role="group" aria-label="Vote on this blog">
          {VOTES.map(({ direction, label, variant }) => (
            <Button
              key={direction}
              variant={blog.myVote === direction ? variant : `outline-${variant}`}
              aria-pressed={blog.myVote === direction}
              disabled={working}
              onClick={() => vote(direction)}
            >
              {label}
            </Button>
          ))}
          {blog.myVote && (
            <Button variant="link" className="px-1" disabled={working} onClick={() => takeBack.mutate({ blogId: blog.id }, { onError })}>
              {messages.removeMyVote}
            </Button>
          )}
        </div>
      )}
      <div className="d-flex flex-wrap gap-3" aria-live="polite">
        <span>Upvote Count: {blog.upvotes}</span>
        <span>Downvote Count: {blog.downvotes}</span>
      </div>
    </div>
  );
}
