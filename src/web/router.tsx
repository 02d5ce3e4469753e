import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './components/app-layout';
import { RouteError } from './components/route-error';
import { NotFoundPage } from './routes/not-found';

/** A screen loaded on first visit, so each route ships only its own code. */
function screen(path: string, load: () => Promise<ComponentType>): RouteObject {
  return { path, lazy: async () => ({ Component: await load() }), errorElement: <RouteError /> };
}

/** The spec's routes, exactly. Parameters are query parameters (?id=, ?searchTerm=, ?page=). */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteError />,
      children: [
        screen('/', async () => (await import('./routes/home')).HomePage),
        screen('/create', async () => (await import('./routes/create')).CreatePage),
        screen('/edit', async () => (await import('./routes/edit')).EditPage),
        screen('/about', async () => (await import('./routes/about')).AboutPage),
        screen('/auth', async () => (await import('./routes/auth')).AuthPage),
        screen('/support', async () => (await import('./routes/support')).SupportPage),
        screen('/viewBlog', async () => (await import('./routes/view-blog')).ViewBlogPage),
        screen('/settings', async () => (await import('./routes/settings')).SettingsPage),
        screen('/search', async () => (await import('./routes/search')).SearchPage),
        screen('/ai', async () => (await import('./routes/ai')).AiPage),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
