import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export interface AiInfo {
  /** Who writes the blogs before any answer names its model: the configured model, or the offline generator. */
  label: string;
}

export function getAiInfo() {
  return apiFetch<AiInfo>('/api/ai/info');
}

export function aiInfoQueryOptions() {
  return queryOptions({ queryKey: ['ai', 'info'], queryFn: getAiInfo, staleTime: 5 * 60_000 });
}

export function useAiInfo() {
  return useQuery(aiInfoQueryOptions());
}
