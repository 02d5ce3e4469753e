import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and while the browser hydrates the server's markup, true from the first
 * render after. Whatever depends on the viewer (the session) waits for it, so the browser's first
 * render matches the anonymous page the server sent.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
