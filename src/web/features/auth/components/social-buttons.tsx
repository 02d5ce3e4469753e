import { paths } from '../../../../shared/paths';
import Button from 'react-bootstrap/Button';
import { authCall, authClient } from '../../../lib/auth-client';
import { useAuthProviders } from '../api/get-auth-providers';
import { useAuthAction } from '../use-auth-action';
import { ErrorNotice } from './form-notices';

const DISPLAY_NAMES: Record<string, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  linkedin: 'LinkedIn',
  twitter: 'Twitter',
  azure: 'Azure',
};

const displayName = (name: string) => DISPLAY_NAMES[name] ?? name.charAt(0).toUpperCase() + name.slice(1);

/** One button per provider the server is configured with; none by default. */
export function SocialButtons() {
  const { data } = useAuthProviders();
  const action = useAuthAction();
  const providers = data?.providers ?? [];
  if (providers.length === 0) return null;
  return (
    <div className="mb-3">
      <div className="d-grid gap-2">
        {providers.map((provider) => (
          <Button
            key={provider.id}
            variant="outline-dark"
            disabled={action.pending}
            onClick={() =>
              // Better Auth's client follows the provider's URL; the provider sends the person back to /auth.
              void action.run(() => authCall(authClient.signIn.social({ provider: provider.id, callbackURL: paths.auth(), errorCallbackURL: paths.auth('sign_in') })))
            }
          >
            Sign in with {displayName(provider.name)}
          </Button>
        ))}
      </div>
      <ErrorNotice message={action.error} />
      <p className="text-center text-body-secondary small mt-3 mb-0">or with your email address</p>
    </div>
  );
}
