import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import { AUDIT_KINDS, auditKindSchema, type AuditEntry, type AuditKind } from '../../../shared/audit-log-schema';
import { LoadingPage } from '../../components/loading-page';
import { errorMessage } from '../../lib/api-client';
import { useAuditLog } from './api/get-audit-log';
import { ScrollsSideways } from './scrolls-sideways';

/** Keeps an address, a date or an action on one line (the page's Bootstrap has no `text-nowrap`). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/** The changed fields, one per line: `field: before → after` (a dash for none). */
function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <span className="text-body-secondary">—</span>;
  return (
    <ul className="list-unstyled small mb-0">
      {entry.changes.map((change) => (
        <li key={change.field} className="text-break">
          <span className="fw-semibold">{change.field}</span>: {change.before ?? '—'} → {change.after ?? '—'}
        </li>
      ))}
    </ul>
  );
}

/** Who, in words: the name above the address; the address never breaks mid-word. */
function Who({ entry }: { entry: AuditEntry }) {
  if (entry.actor === null) return <>Command line</>;
  return (
    <>
      {entry.actorName && <div>{entry.actorName}</div>}
      <div className="small text-body-secondary" style={NO_WRAP}>{entry.actor}</div>
    </>
  );
}

function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td style={NO_WRAP}>
        <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
      </td>
      <td>
        <Who entry={entry} />
      </td>
      <td>
        <code style={NO_WRAP}>{entry.action}</code>
      </td>
      <td>{entry.subjectLabel ?? ''}</td>
      <td>
        <Changes entry={entry} />
      </td>
    </tr>
  );
}

/** /admin/audit-log (issues 44, 59): every admin action in words, newest first, older ones a page at a time, one kind or all. */
export function AuditLogSection() {
  const [kind, setKind] = useState<AuditKind | null>(null);
  const log = useAuditLog(kind);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section id="audit-log" aria-labelledby="audit-log-heading" className="mb-5">
      <h2 id="audit-log-heading" className="h4">Audit log</h2>
      <Form.Group className="mb-3" controlId="audit-log-kind" style={{ maxWidth: 320 }}>
        <Form.Label>Kind</Form.Label>
        <Form.Select value={kind ?? ''} onChange={(event) => setKind(event.target.value === '' ? null : auditKindSchema.parse(event.target.value))}>
          <option value="">All</option>
          {Object.entries(AUDIT_KINDS).map(([id, each]) => (
            <option key={id} value={id}>
              {each.label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {log.isPending ? (
        <LoadingPage />
      ) : log.isError ? (
        <p className="text-danger">The audit log could not be loaded. {errorMessage(log.error)}</p>
      ) : entries.length === 0 ? (
        <p className="text-body-secondary">Nothing has been recorded yet.</p>
      ) : (
        <>
          <ScrollsSideways label="Audit log entries, scrollable">
            <Table size="sm" aria-label="Audit log, newest first">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Subject</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <Entry key={entry.id} entry={entry} />
              ))}
            </tbody>
          </Table>
          </ScrollsSideways>
          {log.hasNextPage && (
            <Button variant="outline-secondary" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              {log.isFetchingNextPage ? messages.loading : 'Load older'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
