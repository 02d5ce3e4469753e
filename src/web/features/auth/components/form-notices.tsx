import Alert from 'react-bootstrap/Alert';

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
