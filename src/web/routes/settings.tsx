import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { RequireSession, type SignedInUser } from '../components/require-session';
import { useAccount } from '../features/auth/api/get-account';
import { ChangePasswordForm } from '../features/auth/components/change-password-form';
import { DeleteAccountSection } from '../features/auth/components/delete-account-card';
import { ProfileSection } from '../features/auth/components/profile-form';
import { ErrorNotice } from '../features/auth/components/form-notices';
import { SetPasswordNote } from '../features/auth/components/set-password-note';
import { SessionList } from '../features/auth/components/session-list';
import { PasskeySettings } from '../features/auth/components/passkey-settings';
import { TwoFactorSettings } from '../features/auth/components/two-factor-settings';
import { CommentEmailSetting } from '../features/comments/components/comment-email-setting';
import { SubscriptionList } from '../features/subscriptions/components/subscription-list';
import { ConnectedApps } from '../features/indieauth/components/connected-apps';
import { LoadingPage } from '../components/loading-page';
import { errorMessage } from '../lib/api-client';
import { useSession } from '../lib/session';
import { useAccess } from '../lib/access';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

function SettingsPage() {
  return <RequireSession what="change your settings">{(user) => <Settings user={user} />}</RequireSession>;
}

/** One card of the page: its heading, then what it holds. */
function SettingsCard({ heading, headingId, children }: { heading: string; headingId?: string; children: ReactNode }) {
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 id={headingId} className="h5 mb-3">
          {heading}
        </h2>
        {children}
      </Card.Body>
    </Card>
  );
}

function Settings({ user }: { user: SignedInUser }) {
  const account = useAccount(user.id);
  const { data: session } = useSession();
  const { access } = useAccess();
  return (
    <div className="mx-auto" style={{ maxWidth: 640 }}>
      <h1 className="h3 mb-4">Settings</h1>
      {session?.secondFactorRequired && (
        <Alert variant="warning" role="alert">
          Your account is a staff account: set up an authenticator app or a passkey below before doing anything else.
        </Alert>
      )}
      <Card className="mb-4">
        <Card.Body>
          <Form.Group controlId="account-email">
            <Form.Label>Email</Form.Label>
            <Form.Control type="email" value={user.email} readOnly />
          </Form.Group>
          {access?.role === 'owner' && <p className="mt-3 mb-0">{messages.youAreOwner}</p>}
        </Card.Body>
      </Card>
      <SettingsCard heading="Profile" headingId="profile-heading">
        <ProfileSection userId={user.id} />
      </SettingsCard>
      <SettingsCard heading="E-mails">
        <CommentEmailSetting userId={user.id} />
      </SettingsCard>
      <SettingsCard heading="Subscriptions">
        <SubscriptionList userId={user.id} />
      </SettingsCard>
      <SettingsCard heading="Fediverse">
        <p className="mb-3">Follow authors on Mastodon and other fediverse sites, read their posts here and reply.</p>
        <Link className="btn btn-outline-primary" to={paths.following()}>
          Following on the fediverse
        </Link>
      </SettingsCard>
      <SettingsCard heading="Sessions">
        <p className="mb-3">Where your account is signed in. Sign out a browser you do not recognise, then change your password.</p>
        <SessionList userId={user.id} />
      </SettingsCard>
      <SettingsCard heading="Apps">
        <p className="mb-3">Apps you allowed to sign in as you, and what each may do. Revoke one you no longer use.</p>
        <ConnectedApps userId={user.id} />
      </SettingsCard>
      <SettingsCard heading="Your data">
        <p className="mb-3">A .zip of your blogs as Markdown files with front matter, your images, comments and votes.</p>
        {/* A plain link: the browser downloads the file itself, with the session's cookie. */}
        <a className="btn btn-outline-primary" href="/api/account/my-data.zip" download>
          Download my data
        </a>
      </SettingsCard>
      {account.isPending ? (
        <LoadingPage />
      ) : account.isError ? (
        <ErrorNotice message={errorMessage(account.error)} />
      ) : (
        <>
          <SettingsCard heading="Two-factor authentication">
            <TwoFactorSettings enabled={Boolean(session?.user.twoFactorEnabled)} hasPassword={account.data.hasPassword} />
          </SettingsCard>
          <SettingsCard heading="Passkeys">
            <p className="mb-3">Sign in with your fingerprint, face or device PIN, or a security key, instead of a password; with two-factor on, a passkey is also a second factor.</p>
            <PasskeySettings userId={user.id} hasPassword={account.data.hasPassword} hasAuthenticator={Boolean(session?.user.twoFactorEnabled)} />
          </SettingsCard>
          <SettingsCard heading="Change Password" headingId="change-password-heading">
            {account.data.hasPassword ? <ChangePasswordForm /> : <SetPasswordNote email={user.email} />}
          </SettingsCard>
          <Card border="danger">
            <Card.Body>
              <h2 className="h5 mb-3">Delete Account</h2>
              <DeleteAccountSection userId={user.id} hasPassword={account.data.hasPassword} />
            </Card.Body>
          </Card>
        </>
      )}
    </div>
  );
}

export const settingsScreen: Screen = {
  cache: 'never',
  Component: SettingsPage,
  meta: () => ({ title: 'Settings', description: SITE_DESCRIPTION, path: paths.settings() }),
};
