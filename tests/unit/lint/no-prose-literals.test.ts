import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import vueParser from 'vue-eslint-parser';
import { describe, it } from 'vitest';
import rule from '../../../eslint-rules/no-prose-literals.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ts = new RuleTester({ languageOptions: { parser: tseslint.parser, sourceType: 'module' } });
const vue = new RuleTester({ languageOptions: { parser: vueParser, parserOptions: { parser: tseslint.parser, sourceType: 'module' } } });

describe('the lint rule against UI text in extension scripts', () => {
  ts.run('no-prose-literals (.ts)', rule, {
    valid: [
      "const k = tr('panel.empty.noMatch');",
      "const c = 'row selected';",
      "import x from './Some File.vue';",
      "const u = 'https://example.com/A Page';",
      "const s = 'div.row > span';",
      "console.warn('Could not read the settings.');",
      "throw new Error('The companion sent a bad message.');",
      "const m = { 'Content Type': 1 };",
      "const h = t('a.b', { n: 3 });",
      "type T = 'Some Label Type';",
    ],
    invalid: [
      { code: "const empty = 'No exchange matches';", errors: [{ messageId: 'prose' }] },
      { code: "label.textContent = 'copied to the clipboard.';", errors: [{ messageId: 'prose' }] },
      { code: 'const s = `Loading ${n} exchanges…`;', errors: [{ messageId: 'prose' }] },
      { code: "setStatus('Offline: start the companion');", errors: [{ messageId: 'prose' }] },
    ],
  });
  vue.run('no-prose-literals (<script setup>)', rule, {
    valid: ['<script setup lang="ts">const k = tr(\'detail.tabs.raw\');</script>'],
    invalid: [
      {
        code: '<script setup lang="ts">const title = computed(() => \'Most expensive exchanges\');</script>',
        errors: [{ messageId: 'prose' }],
      },
    ],
  });
});
