// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import vueParser from 'vue-eslint-parser';
import globals from 'globals';

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
  {
    files: ['companion/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)extension(/|$)|^@/|^~/', message: 'companion/ never imports extension/.' }] },
      ],
    },
  },
  {
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
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
