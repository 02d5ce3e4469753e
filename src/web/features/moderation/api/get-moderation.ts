import { queryOptions } from '@tanstack/react-query';
import type { ModerationOverview } from '../../../../shared/moderation-schema';
import { apiFetch } from '../../../lib/api-client';

export const moderationQueryKeys = {
  all: ['moderation'] as const,
  overview: () => [...moderationQueryKeys.all, 'overview'] as const,
  mailQueue: () => [...moderationQueryKeys.all, 'mail-queue'] as const,
};

export function getModerationOverview() {
  return apiFetch<ModerationOverview>('/api/moderation');
}

export function moderationOverviewQueryOptions() {
  return queryOptions({ queryKey: moderationQueryKeys.overview(), queryFn: getModerationOverview, retry: false });
}
