import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FollowInput, Following } from '../../../../shared/federation-schema';
import { apiFetch } from '../../../lib/api-client';
import { getFollowingQueryOptions } from './get-following';
import { getTimelineQueryOptions } from './get-timeline';

export function follow(input: FollowInput) {
  return apiFetch<Following>('/api/federation/following', { method: 'POST', body: JSON.stringify(input) });
}

/** The list shows the new follow (pending until the other site accepts); their posts may follow. */
export function useFollow(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: follow,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getFollowingQueryOptions(userId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getTimelineQueryOptions(userId).queryKey }),
      ]),
  });
}
