import type { VoteResult } from '../../../../shared/blog-schema';
import { apiFetch } from '../../../lib/api-client';
import { useVoteWrite } from './vote-write';

export function removeVote({ blogId }: { blogId: string }) {
  return apiFetch<VoteResult>(`/api/blogs/${encodeURIComponent(blogId)}/vote`, { method: 'DELETE' });
}

export const useRemoveVote = () => useVoteWrite(removeVote);
