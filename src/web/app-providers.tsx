import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { SiteInfo } from '../shared/page-render';
import { DialogProvider } from './components/message-dialog';
import { SiteContext, SiteUpdateContext } from './lib/site-context';

/** The providers around the router, the same on the server and in the browser. */
export function AppProviders({ queryClient, site, children }: { queryClient: QueryClient; site: SiteInfo; children: ReactNode }) {
  // The server's description of the site, until /admin saves a new one (the next pages have it from the server).
  const [current, setCurrent] = useState(site);
  return (
    <SiteContext.Provider value={current}>
      <SiteUpdateContext.Provider value={setCurrent}>
        <QueryClientProvider client={queryClient}>
          <DialogProvider>{children}</DialogProvider>
        </QueryClientProvider>
      </SiteUpdateContext.Provider>
    </SiteContext.Provider>
  );
}
