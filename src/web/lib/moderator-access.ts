import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from './api-client';
import { useSession } from './session';

/**
 * Whether the signed-in user is a moderator. The server answers 404 to everyone else (as for
 * every moderation endpoint), which here simply means "no". It is a hint for the menu only:
 * the server checks every moderation request itself.
 */
export async function getModeratorAccess(): Promise<boolean> {
  try {
    await apiFetch<{ moderator: true }>('/api/moderation/access');
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 401)) return false;
    throw err;
  }
}

/** Keyed by user, so a different sign-in never sees the previous user's answer. */
export function moderatorAccessQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['moderator-access', userId], queryFn: getModeratorAccess, staleTime: 5 * 60_000 });
}

/** `isModerator` is false until known; `isPending` while the session or the answer is on its way. */
export function useModeratorAccess(): { isModerator: boolean; isPending: boolean } {
  const session = useSession();
  const userId = session.data?.user.id ?? null;
  const access = useQuery({ ...moderatorAccessQueryOptions(userId ?? ''), enabled: userId !== null });
  return {
    isModerator: userId !== null && access.data === true,
    isPending: session.isPending || (userId !== null && access.isPending),
  };
}
