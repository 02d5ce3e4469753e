import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ModerationActionInput, ModerationOverview } from '../../../../shared/moderation-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys, invalidateBlogLists } from '../../../lib/blog-query-keys';
import { moderationOverviewQueryOptions } from './get-moderation';

export function performModerationAction(action: ModerationActionInput) {
  return apiFetch<ModerationOverview>('/api/moderation/actions', { method: 'POST', body: JSON.stringify(action) });
}

/** The answer is the page's new state; what lists and blog pages show may have changed too. */
export function useModerationAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: performModerationAction,
    onSuccess: async (overview) => {
      queryClient.setQueryData(moderationOverviewQueryOptions().queryKey, overview);
      await Promise.all([invalidateBlogLists(queryClient), queryClient.invalidateQueries({ queryKey: blogQueryKeys.details() })]);
    },
  });
}
