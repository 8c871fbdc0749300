// ESLint: typescript-eslint's type-checked rules over the sources, the benchmark and the tests;
// formatting is Prettier's (eslint-config-prettier turns ESLint's own off). `npm run lint` runs both.

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['lib/', 'bench/lib/', 'dist/', 'coverage/', 'node_modules/', 'nginx/archive-schema.js'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      // One project holds the sources, the benchmark, the tests and the edge function; the tests that
      // drive a browser and the browser's own script each have one with the DOM's types (the first
      // project that holds a file is the one it is read with).
      parserOptions: {
        project: ['./tsconfig.test.json', './tsconfig.browser-tests.json', './src/outputs/browser/client/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: globals.node,
    },
  },
  // The browser's script runs in the visitor's browser: its globals are a browser's, not Node's.
  { files: ['src/outputs/browser/client/**'], languageOptions: { globals: globals.browser } },
  {
    rules: {
      // Numbers and booleans read naturally in messages.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(x) => doSomething(x)` as a callback is idiomatic; the rule still catches `return void`.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // For strings `||` is meant: an empty value counts as none.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // It prefers `x!` to `x as T`, which no-non-null-assertion forbids: a cast names the type.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
      // Reports separate their columns by two spaces, and tests match them as printed.
      'no-regex-spaces': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  prettier,
);
