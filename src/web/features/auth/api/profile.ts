import { useQuery } from '@tanstack/react-query';
import type { OwnProfile, ProfileInput } from '../../../../shared/profile-schema';
import { signedInQueryOptions, useJsonMutation } from '../../../lib/api-hooks';
import { blogQueryKeys } from '../../../lib/blog-query-keys';

const PROFILE_PATH = '/api/account/profile';
const profileKey = (userId: string) => ['profile', userId];

export function useProfile(userId: string) {
  return useQuery(signedInQueryOptions<OwnProfile>(profileKey(userId), PROFILE_PATH));
}

/** The answer is the saved profile: it goes straight into the query; the author's pages show it, so they are fetched again. */
export function useSaveProfile(userId: string) {
  return useJsonMutation<ProfileInput, OwnProfile>('PUT', PROFILE_PATH, async (queryClient, saved) => {
    queryClient.setQueryData(profileKey(userId), saved);
    await queryClient.invalidateQueries({ queryKey: blogQueryKeys.authorPages(userId) });
  });
}
