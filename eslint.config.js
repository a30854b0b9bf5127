// Lint guards the architecture (GUIDE.md): web and API never import each other, features
// stay apart, shared imports nothing of the apps, and no import cycles.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

const apiNeverImportsWeb = {
  group: ['**/web/**', '@bountyhunt/web*', 'react', 'react-dom'],
  message: 'The API never imports the web app.',
};

// API modules own their tables (GUIDE.md "Second round"). The modules are the folders of
// apps/api/src/modules; a module missing here owns no table. Row types count as tables.
const apiModules = fs
  .readdirSync(path.join(repoRoot, 'apps/api/src/modules'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const tableOwners = {
  users: ['users', 'hunters', 'UserRow', 'HunterRow'],
  auth: ['sessions'],
  account: ['passwordResets'],
  media: ['media'],
  billing: ['charges', 'silverLedger'],
  bounties: ['bounties', 'rounds', 'claims', 'votes', 'voteEarnings'],
  profiles: ['posts'],
  admin: ['adminFactors', 'adminRecoveryCodes', 'auditLog'],
  identity: ['identitySubmissions'],
  moderation: ['reports'],
  payouts: [
    'ledgerAccounts',
    'ledgerTransactions',
    'ledgerEntries',
    'hunterEarnings',
    'payoutBatches',
    'payouts',
    'taxForms',
  ],
};
for (const owner of Object.keys(tableOwners))
  if (!apiModules.includes(owner)) throw new Error(`eslint.config.js: no API module ${owner}`);
/** What another module may import of a module: its services, read interface, presenters, job names and SQL fragments. */
const moduleSurface = (m) =>
  ['service', 'read', 'present', 'jobs', 'sql'].map((role) => `**/modules/${m}/*.${role}.ts`);
const foreignTables = (m, also = []) =>
  Object.entries(tableOwners)
    .filter(([owner]) => owner !== m)
    .flatMap(([, tables]) => tables)
    .filter((t) => !also.includes(t));
const apiModuleRules = (m, allowTables = []) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        apiNeverImportsWeb,
        {
          group: ['**/db/schema', '**/db/schema/*'],
          importNames: foreignTables(m, allowTables),
          message: `Another module owns this table: call its service or its <module>.read.ts (tableOwners in eslint.config.js).`,
        },
      ],
    },
  ],
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: apiModules
        .filter((o) => o !== m)
        .map((o) => ({
          target: `./apps/api/src/modules/${m}`,
          from: `./apps/api/src/modules/${o}/**`,
          except: moduleSurface(o),
          message: `Modules meet through ${o}'s *.service.ts, *.read.ts, *.present.ts, *.jobs.ts or *.sql.ts, never its repositories or internals.`,
        })),
    },
  ],
});
const apiModuleTestFiles = ['**/*.test.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'apps/api/build/**',
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
          patterns: [apiNeverImportsWeb],
        },
      ],
    },
  },
  // A module owns its tables and keeps its repositories to itself (tests may set up any
  // state). billing's silver.service.ts is the one writer of users.silver, so it may name
  // the users table (CONTRACT.md "Money and tokens").
  ...apiModules.map((m) => ({
    files: [`apps/api/src/modules/${m}/**/*.ts`],
    ignores: apiModuleTestFiles,
    rules: apiModuleRules(m),
  })),
  {
    files: ['apps/api/src/modules/billing/silver.service.ts'],
    rules: apiModuleRules('billing', ['users']),
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
