import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundaries } from './scripts/lint/service-boundaries.mjs';

const STORE_ONLY_IN_INFRA = {
  name: 'mongoose',
  message: 'Only src/infra talks to the store: call a repository function from src/infra instead.',
};
const MODELS_ONLY_IN_INFRA = {
  group: ['**/infra/models', '**/infra/*-models', '**/infra/models/**'],
  message: "A service's models stay inside its src/infra: use the repositories (they take a TenantId) instead.",
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.local/**', 'contracts/generated/**', 'charts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
  },
  {
    // jest loads its test sequencer with require(), untransformed: CommonJS that requires (decision 0209).
    files: ['packages/testkit/jest/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The delivery console's front end: ES modules the browser loads as they are (docs/decisions/0147).
    files: ['services/gateway/console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'navigator',
          'fetch',
          'URLSearchParams',
          'TextEncoder',
          'Node',
          'CustomEvent',
          'HashChangeEvent',
          'setTimeout',
          'clearTimeout',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Repositories in src/infra are the only way to the models (docs/decisions/0082): no other room of a
    // service imports the model definitions or mongoose itself. Services join this list when their app
    // layer goes through repositories (payouts: see the decision).
    files: ['services/{employees,entries,fleet,gateway,payouts,reference-fx,webhook-dispatcher}/src/**/*.ts'],
    ignores: ['services/*/src/infra/**', 'services/*/src/domain/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [STORE_ONLY_IN_INFRA],
          patterns: [MODELS_ONLY_IN_INFRA],
        },
      ],
    },
  },
  {
    // src/app holds the use cases: they return records, and src/http shapes them for the wire
    // (docs/decisions/0175), so a use case never imports the service's http room.
    files: ['services/*/src/app/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [STORE_ONLY_IN_INFRA],
          patterns: [
            MODELS_ONLY_IN_INFRA,
            {
              group: ['**/http', '**/http/**'],
              message: 'src/app returns records; the wire body is made in src/http (mappers), which depends on app.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/domain holds pure rules: no I/O, no framework, no other room of the service (ARCHITECTURE.md).
    files: ['services/*/src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...['mongoose', 'express', 'amqplib', 'mongodb', 'nodemailer', 'sharp', 'pino', 'prom-client'].map(
              (name) => ({
                name,
                message: 'src/domain imports no I/O or framework: move this to src/infra or src/http.',
              }),
            ),
            ...['node:fs', 'node:http', 'node:https', 'node:net', 'node:dns', 'node:child_process'].map((name) => ({
              name,
              message: 'src/domain imports no I/O: move this to src/infra.',
            })),
            {
              name: '@travel/platform',
              allowTypeImports: true,
              message: "src/domain may use the platform's types only (its values do I/O).",
            },
          ],
          patterns: [
            {
              group: ['**/infra', '**/infra/**', '**/http', '**/http/**', '**/app', '**/app/**'],
              message: 'src/domain depends on nothing else in the service (infra, http and app depend on domain).',
            },
          ],
        },
      ],
    },
  },
  {
    // Services call each other only through the clients the providers publish in contracts/src/clients, and
    // share reference data through packages: no service imports another's code, no package or contract
    // imports a service (docs/services.md, "Calls between services").
    files: ['services/*/src/**/*.ts', 'services/*/test/**/*.ts', 'packages/*/src/**/*.ts', 'contracts/src/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/no-other-service-source': 'error' },
  },
  {
    // Every router is case-sensitive and strict, so none matches a spelling the contract validator does not
    // see (docs/decisions/0097).
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='Router'], CallExpression[callee.property.name='Router']",
          message: 'Make routers with apiRouter() from @travel/platform (case-sensitive, strict routing).',
        },
      ],
    },
  },
  {
    // Services raise only the events the contract describes, typed by their schema (docs/events.md).
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@travel/platform',
              importNames: ['raiseUncheckedEvent'],
              message: 'Use raiseEvent: its data is typed by the event schema (contracts/events/internal).',
            },
          ],
        },
      ],
    },
  },
);
