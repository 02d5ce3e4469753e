import { createBrowserRouter } from 'react-router';
import { AppLayout } from './components/app-layout';
import { RouteError } from './components/route-error';
import { AboutPage } from './routes/about';
import { AiPage } from './routes/ai';
import { AuthPage } from './routes/auth';
import { CreatePage } from './routes/create';
import { EditPage } from './routes/edit';
import { HomePage } from './routes/home';
import { NotFoundPage } from './routes/not-found';
import { SearchPage } from './routes/search';
import { SettingsPage } from './routes/settings';
import { SupportPage } from './routes/support';
import { ViewBlogPage } from './routes/view-blog';

/** The spec's routes, exactly. Parameters are query parameters (?id=, ?searchTerm=, ?page=). */
export function createAppRouter() {
  const screen = (path: string, element: React.ReactNode) => ({ path, element, errorElement: <RouteError /> });
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        screen('/', <HomePage />),
        screen('/create', <CreatePage />),
        screen('/edit', <EditPage />),
        screen('/about', <AboutPage />),
        screen('/auth', <AuthPage />),
        screen('/support', <SupportPage />),
        screen('/viewBlog', <ViewBlogPage />),
        screen('/settings', <SettingsPage />),
        screen('/search', <SearchPage />),
        screen('/ai', <AiPage />),
        screen('*', <NotFoundPage />),
      ],
    },
  ]);
}
