import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'web/dist-prerender/**',
      'data/**',
      'e2e/artifacts/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The prerendered login page's own script runs in the browser (web/scripts/prerender.ts ships it).
    files: ['web/scripts/login-boot.js'],
    languageOptions: {
      globals: { ...globals.browser, __SCRIPTS__: 'readonly', __ENTRY__: 'readonly', __PASSKEY_DEVICE_KEY__: 'readonly' },
    },
  },
  {
    // The server-rendered signed-in pages' script (server/src/http/signed-in-page.ts links it).
    files: ['web/scripts/page-boot.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // SQL lives only in queries files (and the database layer): services hold the rules, routes
    // the HTTP (docs/architecture.md).
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/queries.ts', 'server/src/db/**', 'server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]',
          message: 'Query builders belong in a queries.ts file.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'SQL belongs in a queries.ts file.' },
      ],
    },
  },
  {
    files: ['server/src/modules/**/routes.ts', 'server/src/modules/**/*-routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/queries.ts'], message: 'A route calls a service; the service calls the queries.' }] },
      ],
    },
  },
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts', 'server/src/cli.ts'],
    rules: { 'no-console': 'off' },
  },
);
