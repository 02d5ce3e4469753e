import { Link } from 'react-router';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-dark text-light py-4 mt-5">
      <div className="container d-flex flex-column flex-md-row justify-content-between gap-3">
        <nav aria-label="Footer">
          <ul className="list-inline mb-0">
            <li className="list-inline-item"><Link className="link-light" to="/">Home</Link></li>
            <li className="list-inline-item"><Link className="link-light" to="/about">About</Link></li>
            <li className="list-inline-item"><Link className="link-light" to="/auth">Log in or Register</Link></li>
            <li className="list-inline-item"><Link className="link-light" to="/support">Support</Link></li>
          </ul>
        </nav>
        <p className="mb-0">
          <span>{year}</span> · © Blogging Site. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
