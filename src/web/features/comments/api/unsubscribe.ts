import { useMutation } from '@tanstack/react-query';
import type { CommentEmailSetting } from '../../../../shared/comment-schema';
import { apiFetch } from '../../../lib/api-client';

/** With the token of an e-mail's link: no session needed. */
export function unsubscribeFromCommentEmails(token: string) {
  return apiFetch<CommentEmailSetting>('/api/comment-emails/unsubscribe', { method: 'POST', body: JSON.stringify({ token }) });
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribeFromCommentEmails });
}
