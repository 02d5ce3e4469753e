import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { subscriberCountSchema } from '../../../../shared/subscription-schema';
import { apiFetch } from '../../../lib/api-client';
import { subscriptionQueryKeys } from './subscription-query-keys';

export type SubscriberCount = z.infer<typeof subscriberCountSchema>;

/** Only the author themself may ask (401 signed out, 403 anyone else). */
export function getSubscriberCount(authorId: string, signal?: AbortSignal) {
  return apiFetch<SubscriberCount>(`/api/authors/${encodeURIComponent(authorId)}/subscribers`, { signal });
}

export function getSubscriberCountQueryOptions(authorId: string) {
  return queryOptions({ queryKey: subscriptionQueryKeys.subscriberCount(authorId), queryFn: ({ signal }) => getSubscriberCount(authorId, signal) });
}

/** `enabled` only when the signed-in viewer is the author: nobody else's browser asks. */
export function useSubscriberCount(authorId: string, enabled: boolean) {
  return useQuery({ ...getSubscriberCountQueryOptions(authorId), enabled });
}
