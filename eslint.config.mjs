import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
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
