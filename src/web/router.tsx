import { createBrowserRouter } from 'react-router';
import { AppLayout } from './components/app-layout';
import { RouteError } from './components/route-error';
import { AboutPage } from './routes/about';
import { NotFoundPage } from './routes/not-found';
import { PlaceholderPage } from './routes/placeholder';
import { SupportPage } from './routes/support';

/** The spec's routes, exactly. Parameters are query parameters (?id=, ?searchTerm=, ?page=). */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        { path: '/', element: <PlaceholderPage title="Home" />, errorElement: <RouteError /> },
        { path: '/create', element: <PlaceholderPage title="Create a Blog" />, errorElement: <RouteError /> },
        { path: '/edit', element: <PlaceholderPage title="Edit Blog" />, errorElement: <RouteError /> },
        { path: '/about', element: <AboutPage />, errorElement: <RouteError /> },
        { path: '/auth', element: <PlaceholderPage title="Login or Register" />, errorElement: <RouteError /> },
        { path: '/support', element: <SupportPage />, errorElement: <RouteError /> },
        { path: '/viewBlog', element: <PlaceholderPage title="Blog" />, errorElement: <RouteError /> },
        { path: '/settings', element: <PlaceholderPage title="Settings" />, errorElement: <RouteError /> },
        { path: '/search', element: <PlaceholderPage title="Search" />, errorElement: <RouteError /> },
        { path: '/ai', element: <PlaceholderPage title="AI Blog Generator" />, errorElement: <RouteError /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
