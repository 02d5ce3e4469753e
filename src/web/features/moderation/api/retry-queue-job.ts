import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueueJob } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { mailQueueQueryOptions } from './get-mail-queue';

/** Puts a failed job back in the queue, to run again at once. */
export function retryQueueJob(id: string) {
  return apiFetch<QueueJob>(`/api/moderation/queue/${encodeURIComponent(id)}/retry`, { method: 'POST' });
}

/** The counts and the failed list both changed: the queue is fetched again. */
export function useRetryQueueJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryQueueJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mailQueueQueryOptions().queryKey }),
  });
}
