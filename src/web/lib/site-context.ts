import { createContext, useContext } from 'react';
import type { SiteInfo } from '../../shared/page-render';

export const SiteContext = createContext<SiteInfo>({ name: 'Blogging Site', publicUrl: '' });

/** Replaces the page's description of the site (the admin's save shows at once on the page it was made on). */
export const SiteUpdateContext = createContext<(site: SiteInfo) => void>(() => {});

/** The site as the server describes it: its settings readers see (name, look, links) and its public origin (`PUBLIC_URL`). */
export function useSite(): SiteInfo {
  return useContext(SiteContext);
}

export function useUpdateSite(): (site: SiteInfo) => void {
  return useContext(SiteUpdateContext);
}
