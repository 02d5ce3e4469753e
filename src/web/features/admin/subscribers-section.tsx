import { useRef, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import { SUBSCRIBERS_IMPORT_MAX_LABEL, type Subscriber, type SubscriberCount, type SubscribersImportResult } from '../../../shared/subscribers-admin-schema';
import { confirmIrreversible, useDialog } from '../../components/message-dialog';
import { errorMessage } from '../../lib/api-client';
import { subscribersCsvHref, useImportSubscribers, useRemoveSubscriber, useSubscribers } from './api/subscribers';
import { ScrollsSideways } from './scrolls-sideways';

const day = (iso: string) => iso.split('T')[0];
const targetName = (subscriber: Subscriber) => (subscriber.target.kind === 'site' ? 'The whole site' : subscriber.target.authorName);

/**
 * /admin's Subscribers (issue 59, owner and administrators): every e-mail subscription with a
 * search, pages and 'Remove'; 'Export CSV'; 'Import CSV' of a Ghost, Substack or Mailchimp members
 * export; and how many subscribe to each author and follow them on the fediverse.
 */
export function SubscribersSection() {
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(1);
  const subscribers = useSubscribers(search, page);
  const [error, setError] = useState<string | null>(null);

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setSearch(typed.trim());
  };

  return (
    <section id="subscribers" aria-labelledby="subscribers-heading" className="mb-5">
      <h2 id="subscribers-heading" className="h4">Subscribers</h2>
      {error && (
        <Alert variant="danger" dismissible onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      {subscribers.data && <Counts counts={subscribers.data.counts} />}
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Form onSubmit={submitSearch} className="d-flex gap-2 flex-grow-1" role="search" aria-label="Search subscribers">
          <Form.Label htmlFor="subscribers-search" visuallyHidden>
            Search subscribers
          </Form.Label>
          <Form.Control id="subscribers-search" type="search" placeholder="E-mail address" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <Button type="submit" variant="outline-primary">
            Search
          </Button>
        </Form>
        {/* A link, not a button: the browser downloads the file, with the session's cookie. */}
        <a className="btn btn-outline-secondary" href={subscribersCsvHref(search)} download="subscribers.csv">
          Export CSV
        </a>
      </div>
      {subscribers.isPending && <p>{messages.loading}</p>}
      {subscribers.error && <Alert variant="danger">{errorMessage(subscribers.error)}</Alert>}
      {subscribers.data && (
        <>
          <ScrollsSideways label="E-mail subscriptions">
            <Table size="sm" className="align-middle caption-top">
              <caption>E-mail subscriptions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Email address</th>
                  <th scope="col">Subscribed to</th>
                  <th scope="col">Since</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {subscribers.data.items.map((subscriber) => (
                  <SubscriberRow key={subscriber.id} subscriber={subscriber} onError={(err) => setError(errorMessage(err))} />
                ))}
              </tbody>
            </Table>
          </ScrollsSideways>
          {subscribers.data.items.length === 0 && <p>{search ? 'Nobody matches.' : 'Nobody has subscribed yet.'}</p>}
          <div className="d-flex gap-2 align-items-center mb-4">
            <Button variant="outline-secondary" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Prev
            </Button>
            <span aria-live="polite">Page {page}</span>
            <Button variant="outline-secondary" size="sm" disabled={!subscribers.data.hasMore} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        </>
      )}
      <ImportForm />
    </section>
  );
}

function Counts({ counts }: { counts: SubscriberCount[] }) {
  return (
    <ScrollsSideways label="Subscribers per author" className="mb-4">
      <Table size="sm" className="mb-0 caption-top">
        <caption>Subscribers and fediverse followers per author</caption>
        <thead>
          <tr>
            <th scope="col">Subscribed to</th>
            <th scope="col">Confirmed</th>
            <th scope="col">Waiting</th>
            <th scope="col">Fediverse followers</th>
          </tr>
        </thead>
        <tbody>
          {counts.map((count) => (
            <tr key={count.authorId ?? 'site'}>
              <th scope="row" className="fw-normal">{count.name}</th>
              <td>{count.confirmed}</td>
              <td>{count.waiting}</td>
              <td>{count.authorId === null ? '—' : count.fediverseFollowers}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollsSideways>
  );
}

function SubscriberRow({ subscriber, onError }: { subscriber: Subscriber; onError: (err: unknown) => void }) {
  const remove = useRemoveSubscriber();
  const showDialog = useDialog();
  const confirmRemove = async () => {
    const question = confirmIrreversible('Remove this subscriber?', `${subscriber.email} will get no more mail about new blogs ${subscriber.target.kind === 'site' ? 'on the site' : `by ${subscriber.target.authorName}`}.`, 'Remove');
    if (await showDialog(question)) remove.mutate(subscriber.id, { onError });
  };
  return (
    <tr>
      <td>{subscriber.email}</td>
      <td>{targetName(subscriber)}</td>
      <td className="text-nowrap">{day(subscriber.since)}</td>
      <td>{subscriber.confirmed ? <Badge bg="success">Confirmed</Badge> : <Badge bg="secondary">Waiting</Badge>}</td>
      <td>
        <Button size="sm" variant="outline-danger" disabled={remove.isPending} onClick={() => void confirmRemove()} aria-label={`Remove ${subscriber.email}`}>
          Remove
        </Button>
      </td>
    </tr>
  );
}

function ImportForm() {
  const upload = useImportSubscribers();
  const fileInput = useRef<HTMLInputElement>(null);
  const [optedIn, setOptedIn] = useState(false);
  const [report, setReport] = useState<SubscribersImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    setReport(null);
    setError(null);
    if (!file) {
      setError('Choose a CSV file to import.');
      return;
    }
    upload.mutate({ file, optedIn }, { onSuccess: setReport, onError: (err) => setError(errorMessage(err)) });
  };

  return (
    <Form onSubmit={submit} aria-labelledby="subscribers-import-heading">
      <h3 id="subscribers-import-heading" className="h5">Import CSV</h3>
      <Form.Group className="mb-3" controlId="subscribers-import-file">
        <Form.Label>CSV file</Form.Label>
        <Form.Control type="file" accept=".csv,text/csv" ref={fileInput} aria-describedby="subscribers-import-help" />
        <Form.Text id="subscribers-import-help">
          A members export of Ghost, Substack or Mailchimp, or any CSV whose first row names an “email” or “Email Address” column; at most {SUBSCRIBERS_IMPORT_MAX_LABEL}. Only the addresses are imported, each subscribed to the whole site.
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="subscribers-import-opted-in">
        <Form.Check type="checkbox" label="These people already opted in" checked={optedIn} onChange={(event) => setOptedIn(event.target.checked)} aria-describedby="subscribers-opted-in-help" />
        <Form.Text id="subscribers-opted-in-help">Unticked, each new address is sent the e-mail that asks a new subscriber to confirm, and gets nothing else until it does.</Form.Text>
      </Form.Group>
      <Button type="submit" disabled={upload.isPending}>
        {upload.isPending ? messages.loading : 'Import'}
      </Button>
      {error && (
        <Alert variant="danger" className="mt-3">
          {error}
        </Alert>
      )}
      {report && <ImportReport report={report} />}
    </Form>
  );
}

function ImportReport({ report }: { report: SubscribersImportResult }) {
  const added = report.imported === 1 ? '1 address' : `${report.imported} addresses`;
  return (
    <Alert variant={report.imported > 0 ? 'success' : 'info'} className="mt-3" role="status">
      <p className="mb-1">
        Imported {added} from the column “{report.column}”, {report.confirmed ? 'confirmed' : 'each sent the e-mail to confirm'}.
      </p>
      {report.skippedCount === 0 ? (
        <p className="mb-0">Nothing was skipped.</p>
      ) : (
        <>
          <p className="mb-1">Skipped {report.skippedCount === 1 ? '1 row' : `${report.skippedCount} rows`}:</p>
          <ul className="mb-0 text-break">
            {report.skipped.map((row) => (
              <li key={row.line}>
                Line {row.line}: {row.email || '(empty)'}: {row.reason}
              </li>
            ))}
          </ul>
          {report.skipped.length < report.skippedCount && <p className="mb-0">…and {report.skippedCount - report.skipped.length} more.</p>}
        </>
      )}
    </Alert>
  );
}
