import type { QueryClient } from '@tanstack/react-query';

/** The keys of the fediverse queries, keyed by user so another sign-in never sees them. */
export const federationQueryKeys = {
  all: ['federation'] as const,
  followingOf: (userId: string) => [...federationQueryKeys.all, 'following', userId] as const,
  timelineOf: (userId: string) => [...federationQueryKeys.all, 'timeline', userId] as const,
};

/** After a follow or an unfollow: the user's list of accounts and their timeline are fetched again. */
export async function invalidateFollowing(queryClient: QueryClient, userId: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: federationQueryKeys.followingOf(userId) }),
    queryClient.invalidateQueries({ queryKey: federationQueryKeys.timelineOf(userId) }),
  ]);
}
