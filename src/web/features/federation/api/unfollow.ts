import type { UnfollowInput } from '../../../../shared/federation-schema';
import { useJsonMutation } from '../../../lib/api-hooks';
import { invalidateFollowing } from './federation-query-keys';

/** The account leaves the list, and its posts the timeline. */
export function useUnfollow(userId: string) {
  return useJsonMutation<UnfollowInput>('DELETE', '/api/federation/following', (queryClient) => invalidateFollowing(queryClient, userId));
}
