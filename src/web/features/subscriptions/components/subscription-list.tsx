import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { messages } from '../../../../shared/messages';
import { paths } from '../../../../shared/paths';
import type { Subscription } from '../../../../shared/subscription-schema';
import { errorMessage } from '../../../lib/api-client';
import { useMySubscriptions } from '../api/get-my-subscriptions';
import { useRemoveSubscription } from '../api/remove-subscription';
import { subscriptionTexts, targetName } from '../subscription-texts';
import '../../../styles/bootstrap-list-group.scss';

function SubscriptionItem({ subscription, userId }: { subscription: Subscription; userId: string }) {
  const remove = useRemoveSubscription(userId);
  const { target } = subscription;
  const name = targetName(target);
  return (
    <ListGroup.Item as="li" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      <div>
        <div>{target.kind === 'site' ? 'New blogs on the whole site' : <>New blogs by <Link to={paths.author(target.authorId)}>{name}</Link></>}</div>
        <div className="small text-body-secondary">to {subscription.email}</div>
        {remove.isError && (
          <p className="text-danger small mb-0" role="alert">
            {errorMessage(remove.error)}
          </p>
        )}
      </div>
      <Button
        size="sm"
        variant="outline-danger"
        disabled={remove.isPending}
        aria-label={`Remove subscription to ${name}`}
        onClick={() => remove.mutate(subscription.id)}
      >
        {remove.isPending ? messages.loading : 'Remove'}
      </Button>
    </ListGroup.Item>
  );
}

/** Settings: the signed-in reader's subscriptions (the site's, each author's), each with its Remove. */
export function SubscriptionList({ userId }: { userId: string }) {
  const subscriptions = useMySubscriptions(userId);
  if (subscriptions.isPending) {
    return (
      <Spinner animation="border" size="sm" role="status">
        <span className="visually-hidden">{messages.loading}</span>
      </Spinner>
    );
  }
  if (subscriptions.isError) {
    return (
      <p className="text-danger mb-0" role="alert">
        {errorMessage(subscriptions.error)}
      </p>
    );
  }
  const { items } = subscriptions.data;
  if (items.length === 0) return <p className="mb-0">{subscriptionTexts.noSubscriptions}</p>;
  return (
    <ListGroup as="ul" aria-label="Your subscriptions">
      {items.map((subscription) => (
        <SubscriptionItem key={subscription.id} subscription={subscription} userId={userId} />
      ))}
    </ListGroup>
  );
}
