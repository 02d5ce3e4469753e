import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { getFollowingQueryOptions } from './get-following';
import { getTimelineQueryOptions } from './get-timeline';

export function unfollow(actorId: string) {
  return apiFetch<void>('/api/federation/following', { method: 'DELETE', body: JSON.stringify({ actorId }) });
}

/** The account leaves the list, and its posts the timeline. */
export function useUnfollow(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unfollow,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getFollowingQueryOptions(userId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getTimelineQueryOptions(userId).queryKey }),
      ]),
  });
}
