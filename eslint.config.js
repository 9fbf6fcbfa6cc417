// Typed lint over src/ and test/. The restricted imports mirror test/unit/architecture.test.ts, so a layering
// violation shows in the editor as well as in the suite.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PRESENTATION = ['commander', 'chalk', 'cli-table3', '@inquirer/*'];
const COMMANDS = ['audit', 'budget', 'check', 'condense', 'discover', 'dump', 'init', 'replay', 'servers', 'serve'];
/** Three folders up only to the two layers every folder may use (core/, process/); never four. */
const THREE_UP = {
  regex: '^(\\.\\./){3}(?!(core|process)/)',
  message: 'No imports three folders up, but to core/ or process/: import from the layer index.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.out/**', 'coverage/**', 'fixtures/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Terminal escapes and NUL are matched on purpose (sanitising what servers send).
      'no-control-regex': 'off',
      // The SDK's ErrorCode enum is compared with the numeric codes of JSON-RPC errors.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      'no-restricted-imports': ['error', { patterns: [THREE_UP] }],
    },
  },
  {
    // Files fit a screen (issue 39): split by responsibility long before this; blank lines and comments count.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: PRESENTATION, message: 'core/ never imports presentation libraries (STYLE §2).' },
            {
              group: ['**/commands/*', '**/reporters/*', '**/cli', '**/cli.js', '**/app/**', '**/serve/*'],
              message: 'core/ never imports the layers above it.',
            },
            THREE_UP,
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'console', message: 'core/ never prints.' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'cwd', message: 'core/ takes the folder as an argument.' },
        { object: 'process', property: 'env', message: 'core/ takes env as an argument.' },
        { object: 'process', property: 'exit', message: 'core/ never exits.' },
        { object: 'Date', property: 'now', message: 'core/ takes a clock.' },
        { object: 'Math', property: 'random', message: 'core/ takes a seed.' },
      ],
    },
  },
  {
    files: ['src/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: COMMANDS.map((c) => `./${c}.js`),
              message: 'A command never imports another command: share through src/app/ or core/.',
            },
            THREE_UP,
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/commands/*', '**/cli', '**/cli.js'], message: 'app/ sits below the commands.' },
            { group: ['**/serve/*'], message: 'app/ never imports serve/: what both need lives in app/services/.' },
            THREE_UP,
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/commands/*', '**/cli', '**/cli.js'], message: 'app/ sits below the commands.' },
            { group: ['**/serve/*'], message: 'app/ never imports serve/: what both need lives in app/services/.' },
            { group: ['**/use-cases/*'], message: 'services sit below the use cases.' },
            THREE_UP,
          ],
        },
      ],
    },
  },
  {
    files: ['src/serve/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/commands/*', '**/cli', '**/cli.js', '**/use-cases/*'],
              message: 'serve/ sits below the commands and beside the use cases.',
            },
            THREE_UP,
          ],
        },
      ],
    },
  },
  {
    files: ['src/process/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./', message: 'process/ is the bottom layer: it imports only its own files.' }] },
      ],
    },
  },
  {
    files: ['src/reporters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/commands/*', '**/app/*'],
              message: 'reporters render results; they import from core/types only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
