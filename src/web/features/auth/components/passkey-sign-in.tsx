import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
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
  const { run } = action;
  useEffect(() => {
    if (!autofill) return;
    let cancelled = false;
    void autofillAvailable().then((available) => {
      // A conditional request waits quietly for the person to pick a passkey; nothing to show before.
      if (available && !cancelled) void run(({ authClient }) => authClient.signIn.passkey({ autoFill: true }));
    });
    return () => {
      cancelled = true;
    };
  }, [autofill, run]);
  const signIn = () => void run(({ authClient, authCall }) => authCall(authClient.signIn.passkey()));
  return (
    <>
      <Button variant="outline-secondary" className="w-100 mt-3" onClick={signIn} disabled={action.pending}>
        {action.pending ? authTexts.passkey.loading : authTexts.passkey.button}
      </Button>
      <ErrorNotice message={action.error} />
    </>
  );
}
