import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Account } from '../../../../shared/account-schema';
import { apiFetch } from '../../../lib/api-client';

export function getAccount() {
  return apiFetch<Account>('/api/account');
}

/** Keyed by user, so a different sign-in never sees the previous account's answer. */
export function accountQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['account', userId], queryFn: getAccount });
}

export function useAccount(userId: string) {
  return useQuery(accountQueryOptions(userId));
}
