import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** src/server's feature folders: each owns its routes, service and tables. */
const SERVER_FEATURES = ['ai', 'analytics', 'audit', 'auth', 'blogs', 'comments', 'contact', 'feeds', 'federation', 'ghost-api', 'indieauth', 'inline-images', 'moderation', 'people', 'portability', 'search', 'settings', 'site-pages', 'storage-sweep', 'subscriptions', 'tags', 'votes', 'webhooks'];
/** src/server's other folders: the core the features share, and the parts every feature runs on. */
const SERVER_INFRASTRUCTURE = ['core', 'cache', 'db', 'health', 'http', 'images', 'jobs', 'mail', 'markdown', 'memory', 'metrics', 'pages', 'queue', 'rate-limit', 'storage'];
const unclassified = readdirSync(path.join(import.meta.dirname, 'src/server'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && ![...SERVER_FEATURES, ...SERVER_INFRASTRUCTURE, 'testing'].includes(entry.name))
  .map((entry) => entry.name);
if (unclassified.length > 0) throw new Error(`eslint.config.js: name src/server/${unclassified.join(', ')} in SERVER_FEATURES or SERVER_INFRASTRUCTURE`);
const NO_WEB_FROM_SERVER = { group: ['**/web/**'], message: 'The server never imports from src/web.' };

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', '.build-*/', 'node_modules/', '.e2e-data/', 'test-results/', 'playwright-report/', '.vite-cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'The web never imports from src/server.' }] }],
    },
  },
  // Features do not import each other (nor the routes): a route composes them. From a file one
  // folder down (features/<name>/api/x.ts) `../../<other>/` is another feature; from the feature's
  // own folder, `../<other>/`.
  featureBoundary('src/web/features/*/*/**/*.{ts,tsx}', '^\\.\\./\\.\\./[^./]'),
  featureBoundary('src/web/features/*/*.{ts,tsx}', '^\\.\\./[^./]'),
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_WEB_FROM_SERVER] }],
    },
  },
  // On the server, features (SERVER_FEATURES) import `core/` (what they share about blogs, comments
  // and accounts), `shared/` and the infrastructure folders, never each other; the infrastructure
  // and the core import no feature. Only the app (app.ts, main.ts) and the tests compose features.
  ...SERVER_FEATURES.map((feature) => serverBoundary(feature, SERVER_FEATURES.filter((other) => other !== feature), 'Features do not import each other: share it through src/server/core/, or let app.ts compose them.')),
  ...SERVER_INFRASTRUCTURE.map((folder) => serverBoundary(folder, SERVER_FEATURES, 'The core and the infrastructure import no feature: a feature registers itself with them (see app.ts).')),
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/web/**'], message: 'src/shared imports nothing from either side.' }] }],
    },
  },
  {
    // Migrations are typed Kysely<any> on purpose: they are frozen in time, not tied to today's schema.
    files: ['src/server/db/migrations/**/*.ts', 'src/server/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

function serverBoundary(folder, forbidden, message) {
  return {
    files: [`src/server/${folder}/**/*.ts`],
    ignores: ['src/server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_WEB_FROM_SERVER, { regex: `^(\\.\\./)+(${forbidden.join('|')})/`, message }] }],
    },
  };
}

function featureBoundary(files, otherFeature) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The web never imports from src/server.' },
            { regex: otherFeature, message: 'Features do not import each other: let the route compose them.' },
            { group: ['**/routes/**', '**/app-routes'], message: 'Features do not import routes.' },
          ],
        },
      ],
    },
  };
}
