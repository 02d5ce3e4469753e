import { useMutation } from '@tanstack/react-query';
import type { ReplyInput, ReplyResult } from '../../../../shared/federation-schema';
import { apiFetch } from '../../../lib/api-client';

/** Sends the text as a public reply to a remote post; nothing shown here changes. */
export function sendReply(input: ReplyInput) {
  return apiFetch<ReplyResult>('/api/federation/replies', { method: 'POST', body: JSON.stringify(input) });
}

export function useSendReply() {
  return useMutation({ mutationFn: sendReply });
}
