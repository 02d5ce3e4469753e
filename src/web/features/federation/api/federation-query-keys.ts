/** The keys of the fediverse queries, keyed by user so another sign-in never sees them. */
export const federationQueryKeys = {
  all: ['federation'] as const,
  followingOf: (userId: string) => [...federationQueryKeys.all, 'following', userId] as const,
  timelineOf: (userId: string) => [...federationQueryKeys.all, 'timeline', userId] as const,
};
