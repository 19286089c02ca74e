// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';
import globals from 'globals';
import noProseLiterals from './eslint-rules/no-prose-literals.js';

const NO_EXTENSION = { regex: '(^|/)extension(/|$)|^@/|^~/', message: 'companion/ never imports extension/.' };
const NO_PIPELINE = {
  regex: '(^|/)pipeline(/|$)',
  message: 'only the composition roots (companion/server.ts, companion/worker.ts) import pipeline/.',
};

function companionBoundaries() {
  const restrict = (files, patterns, ignores = []) => ({
    files,
    ignores,
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_EXTENSION, ...patterns] }] },
  });
  return [
    // context.ts names the history client's type, which the pipeline defines. cli/import.ts is the
    // root of an import without a companion: it wires the store to the capture's analysis engine.
    restrict(
      ['companion/**/*.ts'],
      [NO_PIPELINE],
      ['companion/server.ts', 'companion/worker.ts', 'companion/context.ts', 'companion/cli/import.ts', 'companion/pipeline/**'],
    ),
    restrict(['companion/pipeline/**/*.ts'], []),
    restrict(
      ['companion/capture/**/*.ts'],
      [
        NO_PIPELINE,
        {
          regex: '^\\.\\./(?!(http|analysis|protocol|lib)/)|^\\.\\./\\.\\./',
          message: 'capture/ imports only http/, analysis/, protocol/ and lib/.',
        },
      ],
    ),
    restrict(
      ['companion/http/**/*.ts'],
      [NO_PIPELINE, { regex: '^\\.\\./', message: 'http/ is below proxy/ and capture/: it imports no other stage.' }],
    ),
    restrict(
      ['companion/protocol/**/*.ts'],
      [NO_PIPELINE, { regex: '^\\.\\./', message: 'protocol/ holds schemas and encoders only: it imports zod and itself, nothing else.' }],
    ),
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/', '.output/', '.wxt/', 'dist/', 'test-results/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  {
    // The extension sees the companion only through the shared wire protocol.
    files: ['extension/**/*.{ts,vue}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+companion/(?!protocol(/|$))|^@@/companion/(?!protocol(/|$))|^~~/companion/(?!protocol(/|$))',
              message: 'extension/ may import only companion/protocol from the companion.',
            },
          ],
        },
      ],
    },
  },
  // The companion's stage boundaries (architecture.md, "Lint rules keep the boundaries"). One
  // rule object per folder, since a later no-restricted-imports replaces an earlier one.
  ...companionBoundaries(),
  {
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Nor in a script: text a user reads, built in `.ts` or `<script>`, goes through the string layer too.
    files: ['extension/**/*.{ts,vue}'],
    plugins: { local: { rules: { 'no-prose-literals': noProseLiterals } } },
    rules: { 'local/no-prose-literals': 'error' },
  },
  {
    // Every extension page speaks through the string layer (lib/i18n.ts): no user-visible literal
    // in a template. Signs that read the same in every language are allowed.
    files: ['extension/**/*.vue'],
    rules: {
      'vue/no-bare-strings-in-template': [
        'error',
        {
          allowlist: [
            '(',
            ')',
            ',',
            '.',
            '&',
            '+',
            '-',
            '=',
            '*',
            '/',
            '#',
            '%',
            '!',
            '?',
            ':',
            '[',
            ']',
            '{',
            '}',
            '<',
            '>',
            '·',
            '•',
            '‐',
            '–',
            '—',
            '−',
            '|',
            '×',
            '▾',
            '▸',
            '↳',
            '└',
            '~',
            '…',
            '“',
            '”',
            ';',
            '+?',
            '→',
          ],
        },
      ],
    },
  },
);
