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
  // The server entry is one self-contained module: packages such as react-bootstrap are not
  // importable as ES modules by Node, and bundled React is built for production once.
  ssr: { noExternal: true },
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
