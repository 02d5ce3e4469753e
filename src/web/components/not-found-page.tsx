import { Link } from 'react-router';
import { messages } from '../../shared/messages';

export function NotFoundPage() {
  return (
    <div className="text-center py-5">
      <h1 className="h3">{messages.notFoundPage}</h1>
      <Link to="/">Go to the home page</Link>
    </div>
  );
}
