import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuthProviders } from '../../../../shared/account-schema';
import { apiFetch } from '../../../lib/api-client';

export function getAuthProviders() {
  return apiFetch<AuthProviders>('/api/auth-providers');
}

export function authProvidersQueryOptions() {
  return queryOptions({ queryKey: ['auth-providers'], queryFn: getAuthProviders, staleTime: Infinity });
}

export function useAuthProviders() {
  return useQuery(authProvidersQueryOptions());
}
