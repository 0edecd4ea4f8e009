import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'bench/tmp/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The dependency rules' configuration (dependency-cruiser reads CommonJS).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    // The example host product (examples/embed-host): a plain Node script.
    files: ['examples/**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        console: 'readonly',
      },
    },
  },
  {
    // The pages' own scripts, the builder's and the preview's selection script run in the browser.
    files: [
      'src/ui/assets/**/*.js',
      'src/ui/client/**/*.js',
      'src/edge/assets/**/*.js',
      'src/embed/assets/**/*.js',
    ],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'navigator',
          'location',
          'Element',
          'HTMLElement',
          'HTMLFormElement',
          'HTMLInputElement',
          'EventSource',
          'fetch',
          'URL',
          'URLSearchParams',
          'setTimeout',
          'clearTimeout',
          'console',
          'FormData',
          'Node',
          'HTMLIFrameElement',
          'HTMLTextAreaElement',
          'HTMLSelectElement',
          'HTMLButtonElement',
          'setInterval',
          'clearInterval',
          'FileReader',
          'requestAnimationFrame',
          'AbortController',
          'MessageChannel',
          'ResizeObserver',
          'Response',
          'Headers',
          'history',
          'getComputedStyle',
          'performance',
          'CustomEvent',
          'CSS',
          'sessionStorage',
          'DOMParser',
        ].map((name) => [name, 'readonly']),
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
  {
    // SQL lives in repo files and db/ (ARCHITECTURE.md): a service holds rules and calls repos, and
    // opens its transactions with Database.transaction (db/index.ts), which the repos' locks read.
    files: ['src/modules/**/*.ts'],
    ignores: ['src/modules/**/repo.ts', 'src/modules/**/*-repo.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom)$/]',
          message: 'SQL lives in repo files (repo.ts, *-repo.ts) and db/.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'SQL lives in repo files (repo.ts, *-repo.ts) and db/.',
        },
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'Open transactions with Database.transaction (db/index.ts).',
        },
      ],
    },
  },
  // Layout is Prettier's (checked by `npm run lint`); no lint rule argues with it.
  prettier,
);
