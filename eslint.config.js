import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'apps/web/src/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/**
 * Import directions (architecture §1): web → contract, api → contract; inside the API
 * routes → domain → db and the domain never imports Fastify; inside the web app
 * app → features → components/lib, and no feature imports another.
 */
const zones = [
  { target: './packages/contract', from: './apps', message: 'The contract is shared; it imports no app code.' },
  { target: './apps/web', from: './apps/api', message: 'The web app talks to the API over HTTP only.' },
  { target: './apps/api', from: './apps/web', message: 'The API never imports web code.' },
  { target: './apps/api/src/domain', from: './apps/api/src/routes', message: 'Use cases do not know about routes.' },
  { target: './apps/api/src/domain', from: './apps/api/src/plugins', message: 'Use cases do not know about HTTP plugins.' },
  { target: './apps/api/src/domain', from: './apps/api/src/http', message: 'Use cases do not know how endpoints are mounted.' },
  { target: './apps/api/src/db', from: './apps/api/src/domain', message: 'The database layer does not call use cases.' },
  { target: './apps/web/src/components', from: './apps/web/src/features', message: 'Shared components import no feature.' },
  { target: './apps/web/src/lib', from: './apps/web/src/features', message: 'Shared code imports no feature.' },
  { target: './apps/web/src/components', from: './apps/web/src/app', message: 'Shared components import nothing from app/.' },
  { target: './apps/web/src/lib', from: './apps/web/src/app', message: 'Shared code imports nothing from app/.' },
  { target: './apps/web/src/features', from: './apps/web/src/app', message: 'Features are composed by app/, not the reverse.' },
  ...features.map((name) => ({
    target: `./apps/web/src/features/${name}`,
    from: './apps/web/src/features',
    except: [`./${name}`],
    message: 'A feature never imports another feature; compose them in app/routes.',
  })),
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      // A cycle makes the order modules initialise in depend on who imports first.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error; one passed where a callback
    // returning nothing is expected (an event handler) runs unchecked.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['apps/api/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', 'fastify-*', '@fastify/*'], message: 'Use cases never import Fastify.' }] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
);
