// Lint guards the architecture (GUIDE.md): web and API never import each other, features
// stay apart, shared imports nothing of the apps, and no import cycles.
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'e2e/screenshots/**',
      'bench/results/**',
      'apps/api/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@bountyhunt/api*', '@bountyhunt/web*'],
              message: 'packages/shared imports nothing of the apps.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/web/**', '@bountyhunt/web*', 'react', 'react-dom'],
              message: 'The API never imports the web app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          // `paths` match the bare package name only, so `@mui/material/Button` stays allowed.
          paths: ['@mui/material', '@mui/icons-material'].map((name) => ({
            name,
            message: 'Import MUI by path (@mui/material/Button) to keep bundles small.',
          })),
          patterns: [
            {
              group: ['**/api/src/**', '@bountyhunt/api*', 'drizzle-orm*', 'fastify*'],
              message: 'The web app never imports the API.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature reaches another feature only through app/ (routes) or shared components.
    files: ['apps/web/src/features/*/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          // Every folder under features/ is a feature (read when lint starts).
          zones: process
            .getBuiltinModule('node:fs')
            .readdirSync(`${import.meta.dirname}/apps/web/src/features`, { withFileTypes: true })
            .filter((d) => d.isDirectory())
            .map((d) => d.name)
            .map((f) => ({
              target: `./apps/web/src/features/${f}`,
              from: './apps/web/src/features',
              except: [`./${f}`],
              message: 'Features stay apart: move what both need to components/ or lib/.',
            })),
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{components,lib}/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/components', from: './apps/web/src/features' },
            { target: './apps/web/src/lib', from: './apps/web/src/features' },
            { target: './apps/web/src/lib', from: './apps/web/src/app' },
          ],
        },
      ],
    },
  },
);
