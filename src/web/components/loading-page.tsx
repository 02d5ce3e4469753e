import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';

/** Shown while the session loads. */
export function LoadingPage() {
  return (
    <div className="d-flex justify-content-center py-5">
      <Spinner animation="border" role="status">
        <span className="visually-hidden">Loading...</span>
      </Spinner>
    </div>
  );
}

/** Shown on screens that need an account, to signed-out visitors. */
export function SignInPrompt({ what = 'use this page' }: { what?: string }) {
  return (
    <div className="text-center py-5">
      <h1 className="h3">Please sign in</h1>
      <p>You need to be signed in to {what}.</p>
      <Link className="btn btn-primary" to="/auth">
        Log in or Register
      </Link>
    </div>
  );
}
