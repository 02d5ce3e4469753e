import { useQuery } from '@tanstack/react-query';
import type { Account } from '../../../../shared/account-schema';
import { signedInQueryOptions } from '../../../lib/api-hooks';

export const accountKey = (userId: string) => ['account', userId];

export function useAccount(userId: string) {
  return useQuery(signedInQueryOptions<Account>(accountKey(userId), '/api/account'));
}
