import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { SiteInfo } from '../shared/page-render';
import { DialogProvider } from './components/message-dialog';
import { SiteContext } from './lib/site-context';

/** The providers around the router, the same on the server and in the browser. */
export function AppProviders({ queryClient, site, children }: { queryClient: QueryClient; site: SiteInfo; children: ReactNode }) {
  return (
    <SiteContext.Provider value={site}>
      <QueryClientProvider client={queryClient}>
        <DialogProvider>{children}</DialogProvider>
      </QueryClientProvider>
    </SiteContext.Provider>
  );
}
