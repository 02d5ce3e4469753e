import { useSession } from '../../../lib/session';
import { useSubscriberCount } from '../api/get-subscriber-count';
import { subscriptionTexts } from '../subscription-texts';

/**
 * On an author's page, for the author only: how many confirmed subscribers they have. Nobody
 * else's browser asks (the server would refuse them anyway). Empty until known, so the caller
 * gives it a place that nothing else depends on.
 */
export function SubscriberCount({ authorId }: { authorId: string }) {
  const { data: session } = useSession();
  const isAuthor = session !== null && session.user.id === authorId;
  const count = useSubscriberCount(authorId, isAuthor);
  if (!isAuthor || count.data === undefined) return null;
  return <p className="text-body-secondary mb-0">{subscriptionTexts.subscriberCount(count.data.count)}</p>;
}
