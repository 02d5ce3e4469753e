import { useMutation } from '@tanstack/react-query';
import type { ReportCreated, ReportRequest } from '../../../../shared/moderation-schema';
import { apiFetch } from '../../../lib/api-client';

export function reportContent(input: ReportRequest) {
  return apiFetch<ReportCreated>('/api/reports', { method: 'POST', body: JSON.stringify(input) });
}

export function useReportContent() {
  return useMutation({ mutationFn: reportContent });
}
