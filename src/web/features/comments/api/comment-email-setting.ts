import { useQuery } from '@tanstack/react-query';
import type { CommentEmailSetting } from '../../../../shared/comment-schema';
import { signedInQueryOptions, useJsonMutation } from '../../../lib/api-hooks';

const SETTING_PATH = '/api/settings/comment-emails';
const settingKey = (userId: string) => ['comment-email-setting', userId];

export function useCommentEmailSetting(userId: string) {
  return useQuery(signedInQueryOptions<CommentEmailSetting>(settingKey(userId), SETTING_PATH));
}

/** The answer is the stored choice: it goes straight into the query. */
export function useSaveCommentEmailSetting(userId: string) {
  return useJsonMutation<CommentEmailSetting, CommentEmailSetting>('PUT', SETTING_PATH, (queryClient, saved) => queryClient.setQueryData(settingKey(userId), saved));
}
