import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FaqEntry, SitePage, SitePagesAdmin, SiteTexts } from '../../../../shared/site-pages-schema';
import { apiFetch } from '../../../lib/api-client';

/** The owner's About text and Support questions (issue 58); each null while the spec's text stands. */
export const siteTextsQueryOptions = () => queryOptions({ queryKey: ['site-texts'], queryFn: () => apiFetch<SiteTexts>('/api/site-texts') });

export function useSiteTexts() {
  return useQuery(siteTextsQueryOptions());
}

/** A page the owner wrote, at /page/:slug. */
export const sitePageQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['site-pages', slug], queryFn: () => apiFetch<SitePage>(`/api/pages/${encodeURIComponent(slug)}`) });

export function useSitePage(slug: string) {
  return useQuery(sitePageQueryOptions(slug));
}

export const adminPagesQueryOptions = () => queryOptions({ queryKey: ['admin', 'pages'], queryFn: () => apiFetch<SitePagesAdmin>('/api/admin/pages') });

export function useAdminPages() {
  return useQuery(adminPagesQueryOptions());
}

export function previewPage(markdown: string) {
  return apiFetch<{ html: string }>('/api/admin/pages/preview', { method: 'POST', body: JSON.stringify({ markdown }) });
}

type PagesChange =
  | { kind: 'about'; markdown: string }
  | { kind: 'faq'; entries: FaqEntry[] }
  | { kind: 'reset'; key: 'about' | 'faq' }
  | { kind: 'create'; title: string; slug: string; markdown: string }
  | { kind: 'update'; slug: string; title: string; markdown: string }
  | { kind: 'delete'; slug: string };

function sendChange(change: PagesChange): Promise<unknown> {
  const json = (body: object) => JSON.stringify(body);
  switch (change.kind) {
    case 'about':
      return apiFetch('/api/admin/site-texts/about', { method: 'PUT', body: json({ markdown: change.markdown }) });
    case 'faq':
      return apiFetch('/api/admin/site-texts/faq', { method: 'PUT', body: json({ entries: change.entries }) });
    case 'reset':
      return apiFetch(`/api/admin/site-texts/${change.key}`, { method: 'DELETE' });
    case 'create':
      return apiFetch('/api/admin/pages', { method: 'POST', body: json({ title: change.title, slug: change.slug, markdown: change.markdown }) });
    case 'update':
      return apiFetch(`/api/admin/pages/${encodeURIComponent(change.slug)}`, { method: 'PUT', body: json({ title: change.title, markdown: change.markdown }) });
    case 'delete':
      return apiFetch(`/api/admin/pages/${encodeURIComponent(change.slug)}`, { method: 'DELETE' });
  }
}

/** Any change of the 'Pages' box; the admin list, About, Support and the pages are read again after it. */
export function useChangePages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendChange,
    // Not awaited: the form that saved says so before the answer's refetch starts it again from what is stored.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminPagesQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: siteTextsQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: sitePageQueryOptions('').queryKey.slice(0, 1) });
    },
  });
}
