import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OwnProfile, ProfileInput } from '../../../../shared/profile-schema';
import { apiFetch } from '../../../lib/api-client';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

export function getProfile() {
  return apiFetch<OwnProfile>('/api/account/profile');
}

export function saveProfile(profile: ProfileInput) {
  return apiFetch<OwnProfile>('/api/account/profile', { method: 'PUT', body: JSON.stringify(profile) });
}

/** Keyed by user, so a different sign-in never sees the previous account's profile. */
export function profileQueryOptions(userId: string) {
  return queryOptions({ queryKey: ['profile', userId], queryFn: getProfile });
}

export function useProfile(userId: string) {
  return useQuery(profileQueryOptions(userId));
}

/** The answer is the saved profile: it goes straight into the query; the author's pages show it, so they are fetched again. */
export function useSaveProfile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: async (saved) => {
      queryClient.setQueryData(profileQueryOptions(userId).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: blogQueryKeys.authorPages(userId) });
    },
  });
}
