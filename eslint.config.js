import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/', 'dist.*/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain Node scripts (build, CI smoke test): TypeScript knows Node's globals, ESLint needs telling.
    files: ['**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'fetch', 'AbortSignal', 'performance', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // The dashboard: the rules of hooks, which no type check catches.
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // The browser tests drive the built server: a worker that also loads the app's source fetches hundreds of modules
    // from vitest's host, which a loaded CI machine once answered too late (the worker's RPC limit is 60 s).
    files: ['test/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/src/**', '**/helpers/app.js'], allowTypeImports: true, message: 'A browser test drives the built server; import test/helpers/databases.js or processes.js, not the app.' }],
      }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
);
