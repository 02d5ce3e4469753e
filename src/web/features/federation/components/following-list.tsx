import Badge from 'react-bootstrap/Badge';
import type { Following } from '../../../../shared/federation-schema';
import { useDialog } from '../../../components/message-dialog';
import { ActionList, ActionListItem } from '../../../components/action-list';
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
    if (confirmed) unfollow.mutate({ actorId: account.actorId });
  };

  return (
    <ActionListItem action="Unfollow" actionLabel={`Unfollow ${handle}`} onAction={() => void confirmUnfollow()} mutation={unfollow}>
      <div className="fw-semibold">{name}</div>
      <div className="small text-body-secondary">
        {handle}
        {account.state === 'pending' && (
          <Badge bg="secondary" className="ms-2">
            Waiting for approval
          </Badge>
        )}
      </div>
    </ActionListItem>
  );
}

/** The remote accounts the signed-in reader follows, each with its Unfollow. */
export function FollowingList({ userId }: { userId: string }) {
  const following = useFollowing(userId);
  return (
    <ActionList query={following} empty="You do not follow anyone on the fediverse yet." label="Accounts you follow">
      {(account) => <FollowingItem key={account.actorId} account={account} userId={userId} />}
    </ActionList>
  );
}
