import { Link } from 'react-router';
import { paths } from '../../../../shared/paths';
import { ActionList, ActionListItem } from '../../../components/action-list';
import type { Subscription } from '../../../../shared/subscription-schema';
import { useMySubscriptions } from '../api/get-my-subscriptions';
import { useRemoveSubscription } from '../api/remove-subscription';
import { subscriptionTexts, targetName } from '../subscription-texts';
import '../../../styles/bootstrap-list-group.scss';

function SubscriptionItem({ subscription, userId }: { subscription: Subscription; userId: string }) {
  const remove = useRemoveSubscription(userId);
  const { target } = subscription;
  const name = targetName(target);
  return (
    <ActionListItem action="Remove" actionLabel={`Remove subscription to ${name}`} onAction={() => remove.mutate(subscription.id)} mutation={remove}>
      <div>{target.kind === 'site' ? 'New blogs on the whole site' : <>New blogs by <Link to={paths.author(target.authorId)}>{name}</Link></>}</div>
      <div className="small text-body-secondary">to {subscription.email}</div>
    </ActionListItem>
  );
}

/** Settings: the signed-in reader's subscriptions (the site's, each author's), each with its Remove. */
export function SubscriptionList({ userId }: { userId: string }) {
  const subscriptions = useMySubscriptions(userId);
  return (
    <ActionList query={subscriptions} empty={subscriptionTexts.noSubscriptions} label="Your subscriptions">
      {(subscription) => <SubscriptionItem key={subscription.id} subscription={subscription} userId={userId} />}
    </ActionList>
  );
}
