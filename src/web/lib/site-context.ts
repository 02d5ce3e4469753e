import { createContext, useContext } from 'react';
import type { SiteInfo } from '../../shared/page-render';

export const SiteContext = createContext<SiteInfo>({ name: 'Blogging Site', publicUrl: '' });

/** The site's name and public origin, as the server configured them (`SITE_NAME`, `PUBLIC_URL`). */
export function useSite(): SiteInfo {
  return useContext(SiteContext);
}
