import { Link } from 'react-router';
import { useSite } from '../lib/site-context';

export function Footer() {
  const year = new Date().getFullYear();
  const site = useSite();
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
        <div>
          {site.footerText && <p className="mb-1 site-footer-text">{site.footerText}</p>}
          <p className="mb-0">
            <span>{year}</span> · © {site.name}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
