import { useQuery } from '@tanstack/react-query';
import type { FollowingList } from '../../../../shared/federation-schema';
import { signedInQueryOptions } from '../../../lib/api-hooks';
import { federationQueryKeys } from './federation-query-keys';

/** The remote accounts the signed-in user follows. */
export function useFollowing(userId: string) {
  return useQuery(signedInQueryOptions<FollowingList>(federationQueryKeys.followingOf(userId), '/api/federation/following'));
}
