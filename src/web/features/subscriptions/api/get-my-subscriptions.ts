import { useQuery } from '@tanstack/react-query';
import type { SubscriptionList } from '../../../../shared/subscription-schema';
import { signedInQueryOptions } from '../../../lib/api-hooks';
import { subscriptionQueryKeys } from './subscription-query-keys';

export function useMySubscriptions(userId: string) {
  return useQuery(signedInQueryOptions<SubscriptionList>(subscriptionQueryKeys.mineOf(userId), '/api/settings/subscriptions'));
}
