import type { ReactNode } from 'react';
import { useSession } from '../lib/session';
import { LoadingPage, SignInPrompt } from './loading-page';

export interface SignedInUser {
  id: string;
  email: string;
}

/** Renders its children only for a signed-in user: a spinner while the session loads, else a sign-in prompt. */
export function RequireSession({ what, children }: { what?: string; children: (user: SignedInUser) => ReactNode }) {
  const { data, isPending } = useSession();
  if (isPending) return <LoadingPage />;
  if (!data) return <SignInPrompt what={what} />;
  return <>{children({ id: data.user.id, email: data.user.email })}</>;
}
