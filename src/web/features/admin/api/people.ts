import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invitation, InvitationInput, PeoplePage, PersonDeletion } from '../../../../shared/people-schema';
import type { ASSIGNABLE_ROLES } from '../../../../shared/role-schema';

type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
import { apiFetch } from '../../../lib/api-client';

export const peopleQueryKeys = {
  all: ['admin', 'people'] as const,
  list: (search: string, page: number) => [...peopleQueryKeys.all, 'list', search, page] as const,
  invitations: () => [...peopleQueryKeys.all, 'invitations'] as const,
};

export function peopleQueryOptions(search: string, page: number) {
  const query = new URLSearchParams({ page: String(page), ...(search ? { search } : {}) });
  return queryOptions({ queryKey: peopleQueryKeys.list(search, page), queryFn: ({ signal }) => apiFetch<PeoplePage>(`/api/admin/people?${query}`, { signal }), retry: false });
}

export function usePeople(search: string, page: number) {
  return useQuery(peopleQueryOptions(search, page));
}

export function invitationsQueryOptions() {
  return queryOptions({ queryKey: peopleQueryKeys.invitations(), queryFn: ({ signal }) => apiFetch<{ items: Invitation[] }>('/api/admin/invitations', { signal }), retry: false });
}

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}

/** Every change here may change the list and the invitations: both are read again. */
function usePeopleMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleQueryKeys.all }) });
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

export const useChangeRole = () => usePeopleMutation(({ id, role }: { id: string; role: AssignableRole }) => apiFetch(`/api/admin/people/${encodeURIComponent(id)}/role`, json('PUT', { role })));
export const useSuspend = () => usePeopleMutation(({ id, suspended }: { id: string; suspended: boolean }) => apiFetch(`/api/admin/people/${encodeURIComponent(id)}/suspension`, json('PUT', { suspended })));
export const useDeletePerson = () => usePeopleMutation(({ id, deletion }: { id: string; deletion: PersonDeletion }) => apiFetch(`/api/admin/people/${encodeURIComponent(id)}`, json('DELETE', deletion)));
export const useInvite = () => usePeopleMutation((input: InvitationInput) => apiFetch<Invitation>('/api/admin/invitations', json('POST', input)));
export const useRevokeInvitation = () => usePeopleMutation((id: string) => apiFetch(`/api/admin/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' }));
export const useTransferOwnership = () => usePeopleMutation((email: string) => apiFetch('/api/admin/ownership', json('POST', { email })));
