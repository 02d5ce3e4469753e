import { createContext, useContext } from 'react';
import type { SiteInfo } from '../../shared/page-render';

export const SiteContext = createContext<SiteInfo>({ name: 'Blogging Site', publicUrl: '' });

/** The site as the server describes it: its settings readers see (name, look, links) and its public origin (`PUBLIC_URL`). */
export function useSite(): SiteInfo {
  return useContext(SiteContext);
}
