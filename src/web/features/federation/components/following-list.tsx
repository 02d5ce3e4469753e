import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import type { Following } from '../../../../shared/federation-schema';
import { messages } from '../../../../shared/messages';
import { useDialog } from '../../../components/message-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useFollowing } from '../api/get-following';
import { useUnfollow } from '../api/unfollow';
import '../../../styles/bootstrap-list-group.scss';

const atHandle = (handle: string) => (handle.startsWith('@') ? handle : `@${handle}`);

function FollowingItem({ account, userId }: { account: Following; userId: string }) {
  const unfollow = useUnfollow(userId);
  const showDialog = useDialog();
  const handle = atHandle(account.handle);
  const name = account.name ?? handle;

  const confirmUnfollow = async () => {
    const confirmed = await showDialog({
      title: 'Unfollow',
      message: `Stop following ${name} (${handle})? Their posts leave this page; you can follow them again later.`,
      okLabel: 'Unfollow',
      okVariant: 'danger',
      cancelLabel: 'Cancel',
    });
    if (confirmed) unfollow.mutate(account.actorId);
  };

  return (
    <ListGroup.Item as="li" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      <div>
        <div className="fw-semibold">{name}</div>
        <div className="small text-body-secondary">
          {handle}
          {account.state === 'pending' && (
            <Badge bg="secondary" className="ms-2">
              Waiting for approval
            </Badge>
          )}
        </div>
        {unfollow.isError && (
          <p className="text-danger small mb-0" role="alert">
            {errorMessage(unfollow.error)}
          </p>
        )}
      </div>
      <Button size="sm" variant="outline-danger" disabled={unfollow.isPending} aria-label={`Unfollow ${handle}`} onClick={() => void confirmUnfollow()}>
        {unfollow.isPending ? messages.loading : 'Unfollow'}
      </Button>
    </ListGroup.Item>
  );
}

/** The remote accounts the signed-in reader follows, each with its Unfollow. */
export function FollowingList({ userId }: { userId: string }) {
  const following = useFollowing(userId);
  if (following.isPending) {
    return (
      <Spinner animation="border" size="sm" role="status">
        <span className="visually-hidden">{messages.loading}</span>
      </Spinner>
    );
  }
  if (following.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {errorMessage(following.error)}
      </p>
    );
  }
  const { items } = following.data;
  if (items.length === 0) return <p className="mb-0">You do not follow anyone on the fediverse yet.</p>;
  return (
    <ListGroup as="ul" aria-label="Accounts you follow">
      {items.map((account) => (
        <FollowingItem key={account.actorId} account={account} userId={userId} />
      ))}
    </ListGroup>
  );
}
