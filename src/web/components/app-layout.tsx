import { Outlet, ScrollRestoration } from 'react-router';
import { Footer } from './footer';
import { Navbar } from './navbar';

export function AppLayout() {
  return (
    <>
      <a href="#main" className="visually-hidden-focusable btn btn-light m-2">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="container py-4" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </>
  );
}
