import { useQuery } from '@tanstack/react-query';
import type { Timeline } from '../../../../shared/federation-schema';
import { signedInQueryOptions } from '../../../lib/api-hooks';
import { federationQueryKeys } from './federation-query-keys';

/** The posts of the accounts the signed-in user follows. */
export function useTimeline(userId: string) {
  return useQuery(signedInQueryOptions<Timeline>(federationQueryKeys.timelineOf(userId), '/api/federation/timeline'));
}
