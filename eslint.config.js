import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', '.build-*/', 'node_modules/', '.e2e-data/', 'test-results/', 'playwright-report/'] },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/**'], message: 'The server never imports from src/web.' }] }],
    },
  },
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
