import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SiteImageKind, SiteImageUploaded, SiteSettingsAnswer } from '../../../../shared/site-settings-form';
import type { SiteSettings } from '../../../../shared/site-settings-schema';
import { apiFetch } from '../../../lib/api-client';

export const siteSettingsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'site-settings'], queryFn: () => apiFetch<SiteSettingsAnswer>('/api/admin/settings') });

export function useSiteSettings() {
  return useQuery(siteSettingsQueryOptions());
}

export function uploadSiteImage(kind: SiteImageKind, file: File) {
  const form = new FormData();
  form.append('image', file);
  return apiFetch<SiteImageUploaded>(`/api/admin/settings/${kind}`, { method: 'POST', body: form });
}

/** Uploads a chosen logo and icon first (each answers its id), then saves the whole settings. */
export async function saveSiteSettings(settings: SiteSettings, files: Partial<Record<SiteImageKind, File>>) {
  const [logo, icon] = await Promise.all([files.logo && uploadSiteImage('logo', files.logo), files.icon && uploadSiteImage('icon', files.icon)]);
  const body: SiteSettings = { ...settings, logoImageId: logo?.id ?? settings.logoImageId, iconImageId: icon?.id ?? settings.iconImageId };
  return apiFetch<SiteSettingsAnswer>('/api/admin/settings', { method: 'PUT', body: JSON.stringify(body) });
}

export function useSaveSiteSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ settings, files }: { settings: SiteSettings; files: Partial<Record<SiteImageKind, File>> }) => saveSiteSettings(settings, files),
    onSuccess: (answer) => queryClient.setQueryData(siteSettingsQueryOptions().queryKey, answer),
  });
}
