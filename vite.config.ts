import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';

// BUILD_DIR lets several builds live side by side (dist/ by default).
const buildDir = path.resolve(process.env.BUILD_DIR ?? 'dist');

/**
 * Two builds: the browser's (`dist/web`: hashed assets and the HTML template) and the server
 * entry that renders the same React code on the server (`vite build --ssr`, into
 * `dist/web-server`). In development the API server runs Vite in middleware mode (see
 * `src/server/pages/page-renderer.ts`), which hot-reloads both.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  plugins: [react()],
  // Only VITE_PUBLIC_-prefixed variables could reach the bundle; we define none, so no secret can.
  envPrefix: 'VITE_PUBLIC_',
  // The built server entry is one self-contained module (bundled React is built for production
  // once). In development Node loads the packages itself, except react-bootstrap, whose
  // per-component folders Node cannot import as ES modules.
  // The server entry is one self-contained module, dependencies included: several (react-bootstrap
  // and its helpers) cannot be imported by Node as ES modules. In development Vite pre-bundles
  // them for the server as it does for the browser.
  ssr: { noExternal: true, optimizeDeps: { noDiscovery: false } },
  publicDir: isSsrBuild ? false : 'public',
  build: isSsrBuild
    ? {
        outDir: path.join(buildDir, 'web-server'),
        emptyOutDir: true,
      }
    : {
        outDir: path.join(buildDir, 'web'),
        emptyOutDir: true,
        sourcemap: true,
      },
}));
