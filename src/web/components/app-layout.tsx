import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useSession } from '../lib/auth-client';
import { Footer } from './footer';
import { Navbar } from './navbar';

/** Blogs carry the viewer's own vote, so cached data is refetched whenever the viewer changes. */
function useRefetchWhenViewerChanges() {
  const queryClient = useQueryClient();
  const { data, isPending } = useSession();
  const viewerId = data?.user.id ?? null;
  const previous = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (isPending) return;
    if (previous.current !== undefined && previous.current !== viewerId) void queryClient.invalidateQueries();
    previous.current = viewerId;
  }, [isPending, viewerId, queryClient]);
}

export function AppLayout() {
  useRefetchWhenViewerChanges();
  return (
    <>
      <a href="#main" className="visually-hidden-focusable btn btn-light m-2">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="container py-4" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
