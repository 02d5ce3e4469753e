import type { FollowInput, Following } from '../../../../shared/federation-schema';
import { useJsonMutation } from '../../../lib/api-hooks';
import { invalidateFollowing } from './federation-query-keys';

/** The list shows the new follow (pending until the other site accepts); their posts may follow. */
export function useFollow(userId: string) {
  return useJsonMutation<FollowInput, Following>('POST', '/api/federation/following', (queryClient) => invalidateFollowing(queryClient, userId));
}
