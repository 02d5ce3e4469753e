import { ActionList, ActionListItem } from '../../../components/action-list';
import { useConnectedApps, useRevokeApp, type ConnectedApp } from '../api/indieauth';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function AppItem({ app, userId }: { app: ConnectedApp; userId: string }) {
  const revoke = useRevokeApp(userId);
  return (
    <ActionListItem action="Revoke" actionLabel={`Revoke ${app.name}`} onAction={() => revoke.mutate(app.id)} mutation={revoke}>
      <div>{app.name}</div>
      <div className="small text-body-secondary">
        {app.scopes.join(', ') || 'sign-in only'} · allowed {when(app.createdAt)} · {app.lastUsedAt ? `last used ${when(app.lastUsedAt)}` : 'never used'}
      </div>
    </ActionListItem>
  );
}

/** Settings: the apps (IndieAuth) that hold a token for the account, each revocable. */
export function ConnectedApps({ userId }: { userId: string }) {
  const apps = useConnectedApps(userId);
  return (
    <ActionList query={apps} empty="No apps." label="Apps that may act for you">
      {(app) => <AppItem key={app.id} app={app} userId={userId} />}
    </ActionList>
  );
}
