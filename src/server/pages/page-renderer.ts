import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { PageRendererModule } from '../../shared/page-render.js';

/**
 * Where pages come from: the web app's server entry and the HTML template around it. In
 * production both are files of the build; in development (and in the server-render tests) Vite
 * loads the entry from source on every request, so an edit shows on the next reload.
 */
export interface PageRenderer {
  load(): Promise<PageRendererModule>;
  template(url: string): Promise<string>;
  close?(): Promise<void>;
}

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The build's `web/index.html` and `web-server/entry-server.js`, or none when they are not built. */
export function builtPageRenderer(webRoot: string): PageRenderer | undefined {
  const entry = path.join(webRoot, '..', 'web-server', 'entry-server.js');
  let template: string;
  try {
    template = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
    readFileSync(entry);
  } catch {
    return undefined;
  }
  const loaded = import(pathToFileURL(entry).href) as Promise<PageRendererModule>;
  return { load: () => loaded, template: async () => template };
}

/**
 * Vite in middleware mode inside our own server: it serves the browser's modules with hot
 * reload and loads the server entry from source. `hmr: false` for tests, which need no socket:
 * their apps share one Vite server per process (it has no watcher, no socket, and nothing of an
 * app's own), so the React app is transformed once per test worker instead of once per app.
 */
export async function vitePageRenderer(app: FastifyInstance, { hmr = true } = {}): Promise<PageRenderer> {
  const vite = hmr ? await createViteServer(app) : await (sharedViteServer ??= createViteServer());
  if (!app.hasDecorator('use')) await app.register((await import('@fastify/middie')).default);
  app.use(vite.middlewares);
  const templateFile = path.join(PACKAGE_ROOT, 'src/web/index.html');
  return {
    load: () => vite.ssrLoadModule('/entry-server.tsx') as Promise<PageRendererModule>,
    template: (url) => vite.transformIndexHtml(url, readFileSync(templateFile, 'utf8')),
    // The shared server lives as long as the process: the next app's pages reuse its transforms.
    close: hmr ? () => vite.close() : undefined,
  };
}

let sharedViteServer: ReturnType<typeof createViteServer> | undefined;

async function createViteServer(hmrServer?: FastifyInstance) {
  // Dev-only packages, loaded only here, so production never needs them installed.
  const { createServer } = await import('vite');
  return createServer({
    configFile: path.join(PACKAGE_ROOT, 'vite.config.ts'),
    // Without hot reload, no WebSocket either: Vite would listen on port 24678 of its own.
    server: { middlewareMode: true, hmr: hmrServer ? { server: hmrServer.server } : false, ws: hmrServer ? undefined : false, watch: hmrServer ? {} : null },
    appType: 'custom',
    logLevel: 'warn',
  });
}
