import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { messages } from '../../../../shared/messages';
import { LoadingPage } from '../../../components/loading-page';
import { errorMessage } from '../../../lib/api-client';
import { useAuthorizationConsent, useAuthorizationDecision } from '../api/indieauth';

/** What each scope lets an app do, in words. */
const SCOPE_TEXTS: Record<string, string> = {
  profile: 'See your name, picture and author page',
  create: 'Publish new blogs as you',
  update: 'Change your blogs',
  delete: 'Delete your blogs',
  media: 'Upload images',
  draft: 'Save drafts',
};

/** The consent screen: which app asks, for which scopes; 'Allow' or 'Deny'. */
export function Consent({ userId, query }: { userId: string; query: string }) {
  const consent = useAuthorizationConsent(userId, query);
  const decision = useAuthorizationDecision();
  const [unchecked, setUnchecked] = useState<string[]>([]);
  if (consent.isPending) return <LoadingPage />;
  if (consent.isError) {
    return (
      <p className="text-danger" role="alert">
        This app’s request cannot be accepted: {errorMessage(consent.error)}
      </p>
    );
  }
  const { client, redirectUri, scopes, me } = consent.data;
  const params = Object.fromEntries(new URLSearchParams(query));
  const decide = (allow: boolean) => decision.mutate({ ...params, allow, scopes: scopes.filter((scope) => !unchecked.includes(scope)) });
  return (
    <>
      <p>
        <strong>{client.name}</strong> (<span className="text-break">{client.id}</span>) asks to sign you in as <span className="text-break">{me}</span>
        {scopes.length > 0 ? ' and to:' : '.'}
      </p>
      {scopes.length > 0 && (
        <Form.Group className="mb-3">
          {scopes.map((scope) => (
            <Form.Check
              key={scope}
              id={`scope-${scope}`}
              label={`${SCOPE_TEXTS[scope] ?? scope} (${scope})`}
              checked={!unchecked.includes(scope)}
              onChange={(event) => setUnchecked((now) => (event.target.checked ? now.filter((s) => s !== scope) : [...now, scope]))}
            />
          ))}
        </Form.Group>
      )}
      <p className="small text-body-secondary">
        You will return to <span className="text-break">{redirectUri}</span>. You can revoke the app in Settings, under Apps.
      </p>
      <div className="d-flex gap-2">
        <Button variant="primary" disabled={decision.isPending} onClick={() => decide(true)}>
          {decision.isPending ? messages.loading : 'Allow'}
        </Button>
        <Button variant="outline-secondary" disabled={decision.isPending} onClick={() => decide(false)}>
          Deny
        </Button>
      </div>
      {decision.isError && (
        <p className="text-danger mt-3" role="alert">
          {errorMessage(decision.error)}
        </p>
      )}
    </>
  );
}
