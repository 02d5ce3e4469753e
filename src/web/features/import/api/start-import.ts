import { useMutation } from '@tanstack/react-query';
import type { ImportJob } from '../../../../shared/import-schema';
import { apiFetch } from '../../../lib/api-client';

/** Uploads an export and starts its import on the server (moderators only); answers at once. */
export function startImport({ file, dryRun }: { file: File; dryRun: boolean }) {
  const form = new FormData();
  form.append('dryRun', String(dryRun));
  form.append('file', file);
  return apiFetch<ImportJob>('/api/imports', { method: 'POST', body: form });
}

export function useStartImport() {
  return useMutation({ mutationFn: startImport });
}
