import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import type { Person } from '../../../shared/people-schema';
import { ASSIGNABLE_ROLES, ROLE_LABELS, type Role } from '../../../shared/role-schema';
import { errorMessage } from '../../lib/api-client';
import { useAccess } from '../../lib/access';
import { useChangeRole, useDeletePerson, useInvitations, useInvite, usePeople, useRevokeInvitation, useSuspend, useTransferOwnership } from './api/people';
import { ScrollsSideways } from './scrolls-sideways';

type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Keeps a date or an address on one line (the page's Bootstrap has no `text-nowrap`). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const day = (iso: string | null) => (iso ? iso.split('T')[0] : 'never');

/**
 * /admin's People (issue 44): every account with its role, blogs and last visit, a role control per
 * person, suspension, deletion (the blogs removed or given to another account), invitations and the
 * owner's hand-over. The server checks each action again; a refusal shows its words here.
 */
export function PeopleSection() {
  const { access } = useAccess();
  const isOwner = access?.role === 'owner';
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(1);
  const people = usePeople(search, page);
  const [error, setError] = useState<string | null>(null);
  const onError = (err: unknown) => setError(errorMessage(err));

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setSearch(typed.trim());
  };

  return (
    <section id="people" aria-labelledby="people-heading" className="mb-5">
      <h2 id="people-heading" className="h4">People</h2>
      {isOwner && <p className="text-body-secondary">{messages.youAreOwner}</p>}
      {error && (
        <Alert variant="danger" dismissible onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Form onSubmit={submitSearch} className="d-flex gap-2 mb-3" role="search" aria-label="Search people">
        <Form.Label htmlFor="people-search" visuallyHidden>
          Search people
        </Form.Label>
        <Form.Control id="people-search" type="search" placeholder="E-mail or name" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <Button type="submit" variant="outline-primary">
          Search
        </Button>
      </Form>
      {people.isPending && <p>{messages.loading}</p>}
      {people.error && <Alert variant="danger">{errorMessage(people.error)}</Alert>}
      {people.data && (
        <>
          <ScrollsSideways label="People, scrollable">
          <Table className="align-middle">
            <thead>
              <tr>
                <th scope="col">Email address</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Blogs</th>
                <th scope="col">Last seen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {people.data.items.map((person) => (
                <PersonRow key={person.id} person={person} viewerIsOwner={isOwner} onError={onError} />
              ))}
            </tbody>
          </Table>
          </ScrollsSideways>
          {people.data.items.length === 0 && <p>Nobody matches.</p>}
          <div className="d-flex gap-2">
            <Button variant="outline-secondary" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Prev
            </Button>
            <span aria-live="polite">Page {page}</span>
            <Button variant="outline-secondary" size="sm" disabled={!people.data.hasMore} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        </>
      )}
      <InviteForm isOwner={isOwner} onError={onError} />
      <PendingInvitations onError={onError} />
      {isOwner && <TransferOwnership onError={onError} />}
    </section>
  );
}

function PersonRow({ person, viewerIsOwner, onError }: { person: Person; viewerIsOwner: boolean; onError: (err: unknown) => void }) {
  const changeRole = useChangeRole();
  const suspend = useSuspend();
  const remove = useDeletePerson();
  const [deleting, setDeleting] = useState(false);
  const [heir, setHeir] = useState('');
  // The owner's role changes only by handing over; an administrator's only by the owner.
  const locked = person.role === 'owner' || (person.role === 'administrator' && !viewerIsOwner);
  const roles = ASSIGNABLE_ROLES.filter((role) => viewerIsOwner || role !== 'administrator');
  const selectId = `role-${person.id}`;

  const confirmDelete = (event: FormEvent) => {
    event.preventDefault();
    const deletion = heir.trim() ? { blogs: 'transfer' as const, transferTo: heir.trim() } : { blogs: 'remove' as const };
    remove.mutate({ id: person.id, deletion }, { onError, onSuccess: () => setDeleting(false) });
  };

  return (
    <tr>
      <td style={NO_WRAP}>
        {person.email}
        {person.suspended && (
          <Badge bg="warning" text="dark" className="ms-2">
            Suspended
          </Badge>
        )}
      </td>
      <td>
        {locked ? (
          <span>{ROLE_LABELS[person.role]}</span>
        ) : (
          <>
          <Form.Label htmlFor={selectId} visuallyHidden>
            {`Role for ${person.email}`}
          </Form.Label>
          <Form.Select
            id={selectId}
            size="sm"
            style={{ minWidth: '9rem' }}
            value={person.role}
            disabled={changeRole.isPending}
            onChange={(event) => changeRole.mutate({ id: person.id, role: event.target.value as AssignableRole }, { onError })}
          >
            {(roles as readonly Role[]).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </Form.Select>
          </>
        )}
      </td>
      <td style={NO_WRAP}>{day(person.joinedAt)}</td>
      <td>{person.blogCount}</td>
      <td style={NO_WRAP}>{day(person.lastSeenAt)}</td>
      <td>
        {!locked && (
          <div className="d-flex flex-wrap gap-2">
            <Button size="sm" variant="outline-warning" disabled={suspend.isPending} onClick={() => suspend.mutate({ id: person.id, suspended: !person.suspended }, { onError })}>
              {person.suspended ? `Unsuspend ${person.email}` : `Suspend ${person.email}`}
            </Button>
            {!deleting ? (
              <Button size="sm" variant="outline-danger" onClick={() => setDeleting(true)}>
                {`Delete ${person.email}`}
              </Button>
            ) : (
              <Form onSubmit={confirmDelete} className="d-flex flex-wrap gap-2 align-items-end">
                <Form.Group controlId={`heir-${person.id}`}>
                  <Form.Label className="small mb-1">Give their blogs to (e-mail; empty: remove them)</Form.Label>
                  <Form.Control size="sm" type="email" value={heir} onChange={(event) => setHeir(event.target.value)} />
                </Form.Group>
                <Button size="sm" type="submit" variant="danger" disabled={remove.isPending}>
                  {remove.isPending ? messages.loading : 'Delete account'}
                </Button>
                <Button size="sm" variant="link" onClick={() => setDeleting(false)}>
                  Cancel
                </Button>
              </Form>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}

function InviteForm({ isOwner, onError }: { isOwner: boolean; onError: (err: unknown) => void }) {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('author');
  const [sent, setSent] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    invite.mutate({ email: email.trim(), role }, { onError, onSuccess: (created) => { setSent(created.email); setEmail(''); } });
  };
  return (
    <Form onSubmit={submit} className="mt-4" aria-labelledby="invite-heading">
      <h3 id="invite-heading" className="h5">Invite</h3>
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <Form.Group controlId="invite-email">
          <Form.Label>Email address</Form.Label>
          <Form.Control type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </Form.Group>
        <Form.Group controlId="invite-role">
          <Form.Label>Role</Form.Label>
          <Form.Select value={role} onChange={(event) => setRole(event.target.value as AssignableRole)}>
            {ASSIGNABLE_ROLES.filter((each) => isOwner || each !== 'administrator').map((each) => (
              <option key={each} value={each}>
                {ROLE_LABELS[each]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? messages.loading : 'Invite'}
        </Button>
      </div>
      {sent && <p className="text-success mt-2" role="status">{`Invitation sent to ${sent}.`}</p>}
    </Form>
  );
}

function PendingInvitations({ onError }: { onError: (err: unknown) => void }) {
  const invitations = useInvitations();
  const revoke = useRevokeInvitation();
  const items = invitations.data?.items ?? [];
  return (
    <div className="mt-4">
      <h3 className="h5">Pending invitations</h3>
      {items.length === 0 ? (
        <p>No pending invitations.</p>
      ) : (
        <ul className="list-unstyled">
          {items.map((item) => (
            <li key={item.id} className="d-flex flex-wrap gap-2 align-items-center mb-2">
              <span>{`${item.email} as ${ROLE_LABELS[item.role]}, until ${day(item.expiresAt)}`}</span>
              <Button size="sm" variant="outline-danger" disabled={revoke.isPending} onClick={() => revoke.mutate(item.id, { onError })}>
                {`Revoke invitation for ${item.email}`}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TransferOwnership({ onError }: { onError: (err: unknown) => void }) {
  const transfer = useTransferOwnership();
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    transfer.mutate(email.trim(), { onError, onSuccess: () => window.location.reload() });
  };
  return (
    <Form onSubmit={submit} className="mt-4" aria-labelledby="transfer-heading">
      <h3 id="transfer-heading" className="h5">Hand over ownership</h3>
      <p className="small text-body-secondary">The account you name becomes the owner; you become an administrator.</p>
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <Form.Group controlId="transfer-email">
          <Form.Label>New owner's email address</Form.Label>
          <Form.Control type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </Form.Group>
        <Button type="submit" variant="outline-danger" disabled={transfer.isPending}>
          {transfer.isPending ? messages.loading : 'Hand over ownership'}
        </Button>
      </div>
    </Form>
  );
}
