import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { messages } from '../../../shared/messages';
import { OUTBOX_LIMIT, type OutboxMail } from '../../../shared/outbox-schema';
import { LoadingPage } from '../../components/loading-page';
import { errorMessage } from '../../lib/api-client';
import { useOutbox } from './api/get-outbox';

function Mail({ mail }: { mail: OutboxMail }) {
  return (
    <tr>
      <td>
        <time dateTime={mail.sentAt}>{new Date(mail.sentAt).toLocaleString()}</time>
      </td>
      <td className="text-break">{mail.to}</td>
      <td className="text-break">{mail.subject}</td>
      <td className="text-break">
        {mail.links.map((link) => (
          <div key={link}>
            <a href={link} target="_blank" rel="noopener noreferrer">
              {link}
            </a>
          </div>
        ))}
      </td>
    </tr>
  );
}

/**
 * /admin's 'Outbox' (issue 58): with no SMTP server every mail is a file in the server's outbox
 * folder; the newest are listed here, their links to this site clickable, so a sign-up's
 * confirmation is found without a shell.
 */
export function OutboxSection() {
  const outbox = useOutbox();
  const mails = outbox.data?.mails ?? [];
  return (
    <section id="outbox" aria-labelledby="outbox-heading" className="mb-5">
      <h2 id="outbox-heading" className="h4">Outbox</h2>
      <p className="text-body-secondary">
        This site has no mail server set up (<code>SMTP_URL</code>): each e-mail is written as a file to the outbox folder (<code>mail/</code> in the data folder). The newest {OUTBOX_LIMIT}:
      </p>
      {outbox.isPending ? (
        <LoadingPage />
      ) : outbox.isError ? (
        <p className="text-danger">The outbox could not be read. {errorMessage(outbox.error)}</p>
      ) : mails.length === 0 ? (
        <p className="text-body-secondary">No e-mail has been written yet.</p>
      ) : (
        <Table responsive size="sm" aria-label="Outbox, newest first">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
              <th scope="col">Links</th>
            </tr>
          </thead>
          <tbody>
            {mails.map((mail, index) => (
              <Mail key={`${mail.sentAt}-${index}`} mail={mail} />
            ))}
          </tbody>
        </Table>
      )}
      <Button variant="outline-secondary" size="sm" disabled={outbox.isFetching} onClick={() => void outbox.refetch()}>
        {outbox.isFetching ? messages.loading : 'Refresh'}
      </Button>
    </section>
  );
}
