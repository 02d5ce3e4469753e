import Alert from 'react-bootstrap/Alert';
import { messages } from '../../../../shared/messages';
import { useSite } from '../../../lib/site-context';

interface NoticeProps {
  message: string | null | undefined;
}

/** A notice under the form, or nothing while there is no message. */
function FormNotice({ message, variant, role }: NoticeProps & { variant: 'danger' | 'success'; role: 'alert' | 'status' }) {
  if (!message) return null;
  return (
    <Alert variant={variant} className="mt-3 mb-0" role={role}>
      {message}
    </Alert>
  );
}

/** The server's (or the form's) error, as a notice under the form. */
export function ErrorNotice({ message }: NoticeProps) {
  return <FormNotice message={message} variant="danger" role="alert" />;
}

export function SuccessNotice({ message }: NoticeProps) {
  return <FormNotice message={message} variant="success" role="status" />;
}

/** Where a mail went, when the site has no mail server (issue 58); nothing when it has one. */
export function OutboxNote() {
  if (!useSite().mailToOutbox) return null;
  return <p className="small text-body-secondary mt-2 mb-0">{messages.mailInOutbox}</p>;
}

/** A "check your e-mail" notice; without a mail server, it also says where the mail went. */
export function MailSentNotice({ message }: NoticeProps) {
  if (!message) return null;
  return (
    <Alert variant="success" className="mt-3 mb-0" role="status">
      {message}
      <OutboxNote />
    </Alert>
  );
}
