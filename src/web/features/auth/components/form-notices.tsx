import Alert from 'react-bootstrap/Alert';

/** The server's (or the form's) error, as a notice under the form. */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="danger" className="mt-3 mb-0" role="alert">
      {message}
    </Alert>
  );
}

export function SuccessNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="success" className="mt-3 mb-0" role="status">
      {message}
    </Alert>
  );
}
