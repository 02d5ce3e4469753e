import { Link } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/paths';

export function NotFoundPage() {
  return (
    <div className="text-center py-5">
      <h1 className="h3">{messages.notFoundPage}</h1>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}

/** A page's own 'does not exist' (no such author, no such blog): `message` as its heading, and the way home. */
export function DoesNotExist({ message }: { message: string }) {
  return (
    <div className="py-4">
      <h1 className="h3">{message}</h1>
      <Link to={paths.home()}>Go to the home page</Link>
    </div>
  );
}
