import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CommentEmailSetting } from '../../../../shared/comment-schema';
import { apiFetch } from '../../../lib/api-client';

export function getCommentEmailSetting() {
  return apiFetch<CommentEmailSetting>('/api/settings/comment-emails');
}

export function saveCommentEmailSetting(setting: CommentEmailSetting) {
  return apiFetch<CommentEmailSetting>('/api/settings/comment-emails', { method: 'PUT', body: JSON.stringify(setting) });
}

/** Keyed by user, so a different sign-in never sees the previous user's choice. */
export function commentEmailSettingQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['comment-email-setting', userId], queryFn: getCommentEmailSetting });
}

export function useCommentEmailSetting(userId: string) {
  return useQuery(commentEmailSettingQueryOptions(userId));
}

/** The answer is the stored choice: it goes straight into the query. */
export function useSaveCommentEmailSetting(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCommentEmailSetting,
    onSuccess: (saved) => queryClient.setQueryData(commentEmailSettingQueryOptions(userId).queryKey, saved),
  });
}
