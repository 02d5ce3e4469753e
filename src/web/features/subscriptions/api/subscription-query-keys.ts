import type { QueryClient } from '@tanstack/react-query';

/** The keys of the subscriptions' queries, used by the queries and by every mutation that changes them. */
export const subscriptionQueryKeys = {
  all: ['subscriptions'] as const,
  /** What an e-mail's link is about, by its token. */
  byToken: (token: string) => [...subscriptionQueryKeys.all, 'by-token', token] as const,
  /** The signed-in reader's own subscriptions (Settings), keyed by user so another sign-in never sees them. */
  mine: () => [...subscriptionQueryKeys.all, 'mine'] as const,
  mineOf: (userId: string) => [...subscriptionQueryKeys.mine(), userId] as const,
  /** An author's own number of subscribers. */
  subscriberCounts: () => [...subscriptionQueryKeys.all, 'subscribers'] as const,
  subscriberCount: (authorId: string) => [...subscriptionQueryKeys.subscriberCounts(), authorId] as const,
};

/**
 * After a link's button confirmed or ended a subscription: whoever is signed in may be its reader
 * or its author, so their list and count are fetched again when next shown. The link's own query
 * stays: its page shows the answer.
 */
export async function invalidateSubscriptionLists(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: subscriptionQueryKeys.mine() }),
    queryClient.invalidateQueries({ queryKey: subscriptionQueryKeys.subscriberCounts() }),
  ]);
}
