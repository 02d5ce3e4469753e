import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** With the token of a new sign-in's e-mail: no session needed. */
export function useNotMe() {
  return useMutation({ mutationFn: (token: string) => apiFetch<{ message: string }>('/api/account/not-me', { method: 'POST', body: JSON.stringify({ token }) }) });
}
