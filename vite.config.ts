import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`;

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  // Only VITE_-prefixed variables could reach the bundle; we define none, so no secret can.
  envPrefix: 'VITE_PUBLIC_',
  build: {
    // BUILD_DIR lets several builds live side by side (dist/ by default).
    outDir: path.resolve(process.env.BUILD_DIR ?? 'dist', 'web'),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/uploads': apiTarget },
  },
});
