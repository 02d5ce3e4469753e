import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

// BUILD_DIR lets several builds live side by side (dist/ by default).
const buildDir = path.resolve(process.env.BUILD_DIR ?? 'dist');

/**
 * Two builds: the browser's (`dist/web`: hashed assets and the HTML template) and the server
 * entry that renders the same React code on the server (`vite build --ssr`, into
 * `dist/web-server`). In development the API server runs Vite in middleware mode (see
 * `src/server/pages/page-renderer.ts`), which hot-reloads both.
 */
/**
 * Writes a Brotli (best quality) and a gzip copy beside each built script and stylesheet, which
 * the server sends as they are (`preCompressed` in src/server/http/web-app.ts): a quarter smaller
 * than compressing on the fly at a speed fit for every request, and no CPU per request.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|svg)$/.test(file.fileName)) continue;
        const content = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        if (content.length < 1024) continue;
        const target = path.join(options.dir!, file.fileName);
        writeFileSync(`${target}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${target}.gz`, zlib.gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * The browser runs on Preact through its React compatibility layer, in the production build and in
 * development alike (about 55 KB less script on every first visit, docs/performance.md; one runtime
 * to debug, docs/runtime.md); the server renders with React in both. Vite's `resolve.alias` is
 * shared by every environment, so this is a plugin that only the browser's environment applies,
 * also inside the development server's dependency pre-bundling.
 */
const BROWSER_REPLACEMENTS: Record<string, string> = {
  'react-dom/client': 'preact/compat/client',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
  react: 'preact/compat',
  // zod without its `new Function` probe, which the CSP refuses: see src/web/lib/zod-jitless.ts.
  zod: fileURLToPath(new URL('./src/web/lib/zod-jitless.ts', import.meta.url)),
};

function preactInTheBrowser(): Plugin {
  return {
    name: 'preact-in-the-browser',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    resolveId(source, importer, options) {
      const replacement = BROWSER_REPLACEMENTS[source];
      if (replacement === undefined) return null;
      return this.resolve(replacement, importer, { ...options, skipSelf: true });
    },
  };
}

/** Popper is left out of the browser build: see src/web/lib/no-popper.ts. */
function withoutPopper(): Plugin {
  const standIn = fileURLToPath(new URL('./src/web/lib/no-popper.ts', import.meta.url));
  return {
    name: 'without-popper',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === './popper' && importer?.includes(`${path.sep}@restart${path.sep}ui${path.sep}`) ? standIn : null;
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  root: 'src/web',
  // Beside the project, not in node_modules: clones that share one node_modules (git worktrees,
  // a symlinked install) each pre-bundle into their own folder instead of invalidating each other's.
  cacheDir: fileURLToPath(new URL('./.vite-cache', import.meta.url)),
  plugins: isSsrBuild
    ? [react()]
    : // React's Fast Refresh cannot patch Preact's components: an edit reloads the page instead.
      [react({ refreshExclude: /./ }), preactInTheBrowser(), ...(command === 'build' ? [withoutPopper()] : []), precompress()],
  environments: {
    client: {
      optimizeDeps: {
        include: ['preact/compat', 'preact/compat/client', 'preact/jsx-runtime', 'preact/jsx-dev-runtime'],
        rolldownOptions: { plugins: [preactInTheBrowser()] },
      },
    },
  },
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
  css: {
    preprocessorOptions: {
      // Bootstrap 5.3's Sass still uses @import and the global colour functions; Dart Sass warns
      // about each use. Those are Bootstrap's to change, not ours.
      scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] },
    },
  },
  build: isSsrBuild
    ? {
        outDir: path.join(buildDir, 'web-server'),
        emptyOutDir: true,
      }
    : {
        outDir: path.join(buildDir, 'web'),
        emptyOutDir: true,
        // Maps are written to disk for debugging, but the bundles do not point at them and the
        // server does not serve them (unless SERVE_SOURCE_MAPS=true).
        sourcemap: 'hidden',
        // Every browser we serve supports <link rel="modulepreload">; the polyfill would weigh on
        // the loader, the one script a reader's first visit downloads (docs/page-weight.md).
        modulePreload: { polyfill: false },
      },
}));
