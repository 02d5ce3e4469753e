import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import type { AuditEntry } from '../../../shared/audit-log-schema';
import { LoadingPage } from '../../components/loading-page';
import { errorMessage } from '../../lib/api-client';
import { useAuditLog } from './api/get-audit-log';

/** A state as the log keeps it (JSON), or a dash for none. */
function State({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-body-secondary">—</span>;
  return <pre className="small mb-0 text-wrap text-break">{JSON.stringify(value, null, 1)}</pre>;
}

function Entry({ entry }: { entry: AuditEntry }) {
  return (
    <tr>
      <td>
        <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
      </td>
      <td className="text-break">{entry.actor ?? 'Command line'}</td>
      <td>
        <code>{entry.action}</code>
      </td>
      <td className="text-break">{entry.subject ?? ''}</td>
      <td>
        <State value={entry.before} />
      </td>
      <td>
        <State value={entry.after} />
      </td>
    </tr>
  );
}

/** /admin's 'Audit log' (issue 44): every admin action, newest first, older ones a page at a time. */
export function AuditLogSection() {
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section id="audit-log" aria-labelledby="audit-log-heading" className="mb-5">
      <h2 id="audit-log-heading" className="h4">Audit log</h2>
      {log.isPending ? (
        <LoadingPage />
      ) : log.isError ? (
        <p className="text-danger">The audit log could not be loaded. {errorMessage(log.error)}</p>
      ) : entries.length === 0 ? (
        <p className="text-body-secondary">Nothing has been recorded yet.</p>
      ) : (
        <>
          <Table responsive size="sm" aria-label="Audit log, newest first">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Subject</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <Entry key={entry.id} entry={entry} />
              ))}
            </tbody>
          </Table>
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
