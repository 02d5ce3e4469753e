import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Access } from '../../shared/role-schema';
import { apiFetch } from './api-client';
import { useSession } from './session';

/** Keyed by user, so a different sign-in never sees the previous user's answer. */
export function accessQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['access', userId], queryFn: () => apiFetch<Access>('/api/access'), staleTime: 60_000 });
}

/**
 * The signed-in account's role and what it may do (`resource:action`, e.g. `site:manage`). A hint
 * for menus and buttons only: the server checks every request itself. `can` is false until known.
 */
export function useAccess(): { access: Access | null; can: (permission: string) => boolean; isPending: boolean } {
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  const query = useQuery({ ...accessQueryOptions(userId ?? ''), enabled: userId !== null });
  const access = userId !== null ? (query.data ?? null) : null;
  return {
    access,
    can: (permission) => access?.permissions.includes(permission) ?? false,
    isPending: session.isPending || (userId !== null && query.isPending),
  };
}
