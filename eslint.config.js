// ESLint: typescript-eslint's type-checked rules over the sources, the benchmark and the tests;
// formatting is Prettier's (eslint-config-prettier turns ESLint's own off). `npm run lint` runs both.

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Size limits for src/: a function of more than 80 lines (blank lines and comments aside) or with a
 * complexity (branches) above 20 is hard to read whole and to test case by case. The functions over
 * them today are named below, each with the limit it meets now (so it cannot grow unnoticed) and why
 * it stays one function. ESLint scopes a rule by file, not by function, so an entry raises the
 * limit for its whole file; a second long function in that file is caught only above that limit.
 * Split a function and remove its line here.
 */
const LIMITS = { lines: 80, complexity: 20 };
/** [file, function, the limit it needs, why it is one function] */
const LONG_FUNCTIONS = [
  ['src/cli.ts', 'createProgram', 516, 'the one commander wiring of every command and option, read as a table'],
  [
    'src/curation/product-header.ts',
    'describeProduct',
    207,
    'one pass over a FITS product header, keyword by keyword, in the order the standard lists them',
  ],
  ['src/pipeline/cache.ts', 'openCache', 146, 'a closure over one cache folder: its methods share the folder, its lock and what was read'],
  [
    'src/hosting/nginx.ts',
    'renderNginxSite, renderNjs',
    135,
    'templates: the configuration and the njs script as text, read top to bottom as nginx reads them',
  ],
  ['src/pipeline/validate.ts', 'describeError', 102, "one case per ajv keyword, each turning an error into the curator's sentence"],
  ['src/outputs/browser/pictures/bands.ts', 'bandChart', 98, 'an SVG template whose layout steps share the scales computed first'],
  ['src/outputs/browser/plan.ts', 'planBrowser', 96, 'the table of browser pages to plan, one entry per kind of page'],
  ['src/curation/stamp.ts', 'stamp', 91, 'one pass over the changed files: read, compare with git, rewrite, report'],
  ['src/readers/votable.ts', 'votableHead', 89, 'one streaming state machine over chunks; its states share the carry-over between chunks'],
  ['src/pipeline/indentation.ts', 'indentationProblem', 87, 'one state machine over the lines; its states share the stack of levels'],
  ['src/hosting/serve.ts', 'startServer', 84, 'the server and its shutdown share the sockets and watchers it opens'],
];
const COMPLEX_FUNCTIONS = [
  ['src/curation/product-header.ts', 'describeProduct, extensionsOf', 85, 'one branch per FITS keyword and HDU kind the standard defines'],
  ['src/pipeline/validate.ts', 'describeError', 45, "one branch per ajv keyword, each with the curator's sentence"],
  ['src/outputs/browser/pictures/footprint.ts', 'readWcs', 43, 'one branch per WCS keyword and projection the FITS WCS papers allow'],
  [
    'src/pipeline/indentation.ts',
    'indentationProblem, unclosed',
    41,
    'a character-level state machine of YAML indentation and flow collections',
  ],
  ['src/pipeline/checks.ts', 'fitsHeader, product', 34, 'one check per card or field, each with its own finding'],
  [
    'src/pipeline/parse.ts',
    'shapeProblem, eventsNeedingJudgement',
    37,
    'one branch per YAML event and node kind the fast path must hand on',
  ],
  [
    'src/curation/import.ts',
    'readRegion, readColumns, importColumns',
    31,
    'one branch per source format (FITS, text header, CSV, VOTable) and option',
  ],
  ['src/curation/new.ts', 'scaffold', 30, 'one branch per kind of item and what a curator may have left out'],
  [
    'src/pipeline/limits.ts',
    'onlyTheOtherParserJudges',
    23,
    'one branch per YAML event the position-keeping parser cannot judge, each with its own message',
  ],
  ['src/changes/rules.ts', 'guardedChange', 27, 'one branch per kind of change that clients depend on'],
  ['src/changes/record.ts', 'entryProblems, describe', 26, 'one branch per field of a change entry and per schema keyword'],
  [
    'src/hosting/serve.ts',
    'deliver, respond, acceptedEncoding',
    25,
    'the HTTP rules (methods, conditional requests, ranges, encodings), each a branch',
  ],
  ['src/vocabularies/vounit.ts', 'unitProblem', 26, 'one branch per VOUnit mistake, each with its own sentence'],
  ['src/outputs/openapi/schemas.ts', 'toDialect2020', 24, 'one branch per draft-07 keyword that 2020-12 spells otherwise'],
  ['src/vocabularies/instant.ts', 'parseInstant', 24, 'one branch per ISO 8601 part that can be wrong, each with its reason'],
  ['src/vocabularies/datatypes.ts', 'typeFromTap', 23, 'one branch per ADQL and VOTable type spelling'],
  ['src/readers/fits.ts', 'parseValue', 22, 'one branch per value kind of the FITS standard, section 4.2'],
  ['src/curation/rewrite.ts', 'canonicaliseNode', 21, 'one branch per YAML node kind and schema hint'],
  ['src/vocabularies/ucd.ts', 'parseUcdList', 21, 'one branch per line form of the three UCD list files it reads'],
];
/** One config entry per file: the largest limit its named functions need. */
function exceptions(rule, table, options) {
  const byFile = new Map();
  for (const [file, , limit] of table) byFile.set(file, Math.max(limit, byFile.get(file) ?? 0));
  return [...byFile].map(([file, limit]) => ({ files: [file], rules: { [rule]: ['error', { ...options, max: limit }] } }));
}
const LINE_OPTIONS = { skipBlankLines: true, skipComments: true };

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
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { ...LINE_OPTIONS, max: LIMITS.lines }],
      complexity: ['error', { max: LIMITS.complexity }],
    },
  },
  ...exceptions('max-lines-per-function', LONG_FUNCTIONS, LINE_OPTIONS),
  ...exceptions('complexity', COMPLEX_FUNCTIONS, {}),
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  prettier,
);
