import reactHooks from 'eslint-plugin-react-hooks'
import neostandard, { plugins } from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'data/**', 'node_modules/**', 'web/dist/**', 'web/test-results/**', 'web/src/api/schema.d.ts'] }),
  {
    rules: {
      // A TypeBox schema and its Static type share one name on purpose (UserProfile and UserProfile);
      // TypeScript itself reports real redeclarations.
      '@typescript-eslint/no-redeclare': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@typescript-eslint': plugins['typescript-eslint'].plugin },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test's describe/it return promises the runner itself awaits.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // `void promise` marks a promise an event handler starts and deliberately does not await.
      'no-void': ['error', { allowAsStatement: true }],
    },
  },
]
