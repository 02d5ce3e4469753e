import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Development runs in the browser what production runs (issue 24): Preact through preact/compat,
 * while the server renders with React. The build's side is covered by the e2e suite, which runs
 * on the built bundle; this checks the development server `npm run dev` starts.
 */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(PACKAGE_ROOT, 'src/web/main.tsx');

let vite: ViteDevServer;
beforeAll(async () => {
  vite = await createServer({
    configFile: path.join(PACKAGE_ROOT, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
    logLevel: 'silent',
  });
});
afterAll(() => vite?.close());

const resolvedIn = async (environment: 'client' | 'ssr', id: string) =>
  (await vite.environments[environment].pluginContainer.resolveId(id, MAIN))?.id ?? '';

describe('the browser runtime in development', () => {
  it.each(['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime'])(
    'the browser gets Preact for %s, the server React',
    async (id) => {
      expect(await resolvedIn('client', id)).toMatch(/(node_modules\/preact\/|\.vite-cache\/deps\/preact_)/);
      expect(await resolvedIn('ssr', id)).not.toMatch(/preact/);
    },
  );

  it('the browser gets zod without its new Function probe, as in production', async () => {
    expect(await resolvedIn('client', 'zod')).toMatch(/src\/web\/lib\/zod-jitless\.ts$/);
  });

  it('the app the browser loads imports no React', async () => {
    const main = await vite.environments.client.transformRequest('/main.tsx');
    expect(main?.code).toMatch(/preact/);
    expect(main?.code).not.toMatch(/\/(react-dom|react)(_client)?\.js/);
  });
});
