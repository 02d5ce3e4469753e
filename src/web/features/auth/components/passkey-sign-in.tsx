import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import { useAuthClient } from '../../../lib/session';
import { authTexts } from '../auth-texts';
import { useAuthAction } from '../use-auth-action';
import { ErrorNotice } from './form-notices';

/** Whether this browser can offer the account's passkeys in the e-mail field's autofill. */
async function autofillAvailable(): Promise<boolean> {
  if (typeof PublicKeyCredential === 'undefined' || typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return false;
  return PublicKeyCredential.isConditionalMediationAvailable().catch(() => false);
}

/**
 * 'Sign in with a passkey': on its own, or as the second step of a sign-in. On the sign-in view
 * (`autofill`), the browser also offers the passkeys in the e-mail field's suggestions
 * (`autocomplete="username webauthn"`) while the page is open.
 */
export function PasskeySignIn({ autofill = false }: { autofill?: boolean }) {
  const action = useAuthAction();
  const loadAuth = useAuthClient();
  useEffect(() => {
    if (!autofill) return;
    let cancelled = false;
    void autofillAvailable().then(async (available) => {
      if (!available || cancelled) return;
      // A conditional request waits quietly, with no pending state, for the person to pick a
      // passkey from the field's suggestions (a sign-in refreshes the session itself). The
      // button's own request replaces it; its abort is no error to show.
      const { authClient } = await loadAuth();
      await authClient.signIn.passkey({ autoFill: true }).catch(() => undefined);
    });
    return () => {
      cancelled = true;
    };
  }, [autofill, loadAuth]);
  const signIn = () => void action.run(({ authClient, authCall }) => authCall(authClient.signIn.passkey()));
  return (
    <>
      <Button variant="outline-secondary" className="w-100 mt-3" onClick={signIn} disabled={action.pending}>
        {action.pending ? authTexts.passkey.loading : authTexts.passkey.button}
      </Button>
      <ErrorNotice message={action.error} />
    </>
  );
}
