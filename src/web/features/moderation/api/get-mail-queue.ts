import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueOverview } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { moderationQueryKeys } from './get-moderation';

/** The durable queue's counts and its failed jobs (moderators only; 404 to anyone else). */
export function getMailQueue(signal?: AbortSignal) {
  return apiFetch<QueueOverview>('/api/moderation/queue', { signal });
}

export function mailQueueQueryOptions() {
  return queryOptions({ queryKey: moderationQueryKeys.mailQueue(), queryFn: ({ signal }) => getMailQueue(signal), retry: false });
}

export function useMailQueue() {
  return useQuery(mailQueueQueryOptions());
}
