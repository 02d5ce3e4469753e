import { useLocation } from 'react-router';
import { LoadingPage } from '../components/loading-page';
import { Consent } from '../features/indieauth/components/consent';
import { useSession } from '../lib/session';
import type { Screen } from '../lib/screen';

/**
 * /indieauth/authorize: IndieAuth's authorization endpoint as the author's browser sees it. Signed
 * in, the consent screen; signed out, a sign-in in another tab, after which this one shows it.
 */
function AuthorizePage() {
  const { search } = useLocation();
  const { data: session, isPending } = useSession();
  return (
    <section className="mx-auto" style={{ maxWidth: 560 }} aria-labelledby="authorize-heading">
      <h1 id="authorize-heading" className="h3 mb-3">
        Allow an app?
      </h1>
      {isPending ? (
        <LoadingPage />
      ) : session ? (
        <Consent userId={session.user.id} query={search.replace(/^\?/, '')} />
      ) : (
        <p>
          An app asks to sign you in.{' '}
          <a href="/auth" target="_blank" rel="noopener">
            Log in
          </a>{' '}
          (it opens in a new tab), then come back to this tab.
        </p>
      )}
    </section>
  );
}

export const indieAuthAuthorizeScreen: Screen = {
  cache: 'never',
  Component: AuthorizePage,
  meta: () => ({ title: 'Allow an app?', description: 'An app asks to sign you in.', path: '/indieauth/authorize' }),
};
