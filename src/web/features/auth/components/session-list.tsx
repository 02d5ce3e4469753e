import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import type { AccountSession } from '../../../../shared/account-schema';
import { messages } from '../../../../shared/messages';
import { ActionList, ActionListItem } from '../../../components/action-list';
import { errorMessage } from '../../../lib/api-client';
import { useAccountSessions, useEndOtherSessions, useEndSession } from '../api/sessions';
import '../../../styles/bootstrap-list-group.scss';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function SessionFacts({ session }: { session: AccountSession }) {
  return (
    <>
      <div>{session.device}</div>
      <div className="small text-body-secondary">
        {session.address ? `${session.address} · ` : ''}signed in {when(session.signedInAt)} · last seen {when(session.lastSeenAt)}
      </div>
    </>
  );
}

function OtherSession({ session, userId }: { session: AccountSession; userId: string }) {
  const end = useEndSession(userId);
  return (
    <ActionListItem action="Sign out" actionLabel={`Sign out ${session.device}, signed in ${when(session.signedInAt)}`} onAction={() => end.mutate(session.id)} mutation={end}>
      <SessionFacts session={session} />
    </ActionListItem>
  );
}

/** Settings: every session of the account, this browser's first; each other one can be signed out, or all of them. */
export function SessionList({ userId }: { userId: string }) {
  const sessions = useAccountSessions(userId);
  const endOthers = useEndOtherSessions(userId);
  const others = sessions.data?.items.filter((session) => !session.current).length ?? 0;
  return (
    <>
      <ActionList query={sessions} empty="No sessions." label="Where you are signed in">
        {(session) =>
          session.current ? (
            <ListGroup.Item as="li" key={session.id}>
              <SessionFacts session={session} />
              <div className="small fw-semibold">This browser</div>
            </ListGroup.Item>
          ) : (
            <OtherSession key={session.id} session={session} userId={userId} />
          )
        }
      </ActionList>
      {others > 0 && (
        <div className="mt-3">
          <Button variant="outline-danger" disabled={endOthers.isPending} onClick={() => endOthers.mutate()}>
            {endOthers.isPending ? messages.loading : 'Sign out all other sessions'}
          </Button>
          {endOthers.isError && (
            <p className="text-danger small mb-0 mt-2" role="alert">
              {errorMessage(endOthers.error)}
            </p>
          )}
        </div>
      )}
    </>
  );
}
