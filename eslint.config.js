import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'bench/tmp/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    // The pages' own scripts run in the browser.
    files: ['src/ui/assets/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        ['window', 'document', 'navigator', 'location', 'Element', 'HTMLElement', 'HTMLFormElement', 'HTMLInputElement', 'EventSource', 'fetch', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'console', 'FormData'].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Tests read JSON bodies of many shapes; `any` there keeps assertions readable.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
