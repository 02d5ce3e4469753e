import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '../../../../shared/contact-schema';
import { apiFetch } from '../../../lib/api-client';

export function sendContactMessage(input: ContactInput) {
  return apiFetch<{ id: string; message: string }>('/api/contact', { method: 'POST', body: JSON.stringify(input) });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
