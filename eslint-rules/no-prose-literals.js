// @ts-check
/**
 * Reports string literals in extension scripts that read as prose: text a user would see, which
 * must go through the string layer (lib/i18n.ts) instead. Templates are covered by
 * `vue/no-bare-strings-in-template`; this covers `.ts` files and `<script>` blocks.
 *
 * "Prose" is two or more words of letters with a capitalised word or closing punctuation, so
 * class lists ("row selected"), keys ("detail.tabs.raw"), selectors, MIME types and URLs pass.
 * Calls whose arguments are not shown (the string layer itself, console, thrown errors that the
 * UI never prints raw) are skipped.
 */

const WORDS = /[\p{L}]{2,}[^\n]*\s+[\p{L}]{2,}/u;
const PROSE_MARK = /(^|\s)\p{Lu}\p{Ll}|[.!?…:]\s*$|[.!?…:]\s+\p{L}/u;
const NOT_SHOWN_CALLS = new Set([
  't',
  'tr',
  'te',
  '$t',
  'd',
  'n',
  'warn',
  'error',
  'log',
  'debug',
  'info',
  'querySelector',
  'querySelectorAll',
  'matchMedia',
  'require',
  'import',
]);

/** @param {string} text */
export function looksLikeProse(text) {
  const s = text.trim();
  if (!WORDS.test(s) || !PROSE_MARK.test(s)) return false;
  // Code and markup, not prose: URLs, CSS, selectors, paths.
  if (/^(https?:|chrome|moz-extension:|data:|\/|\.|#|@|\[)/.test(s) || /[{};<>=]/.test(s)) return false;
  return true;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'UI text in extension scripts goes through the string layer' },
    messages: { prose: 'User-visible text "{{text}}": add a key to extension/locales and use tr()/t().' },
    schema: [],
  },
  create(context) {
    /** @param {import('estree').Node & { parent?: any }} node */
    function skipped(node) {
      const p = node.parent;
      if (!p) return false;
      if (p.type === 'ImportDeclaration' || p.type === 'ExportNamedDeclaration' || p.type === 'ExportAllDeclaration') return true;
      if (p.type === 'ImportExpression') return true;
      if (p.type === 'Property' && p.key === node) return true;
      if (p.type === 'TSLiteralType' || p.type === 'TSEnumMember') return true;
      if (p.type === 'CallExpression' || p.type === 'NewExpression') {
        const c = p.callee;
        const name =
          c.type === 'Identifier' ? c.name : c.type === 'MemberExpression' && c.property.type === 'Identifier' ? c.property.name : null;
        if (name && NOT_SHOWN_CALLS.has(name)) return true;
        if (p.type === 'NewExpression' && name && /Error$/.test(name)) return true;
      }
      if (p.type === 'ThrowStatement') return true;
      return false;
    }
    /** @param {any} node @param {string} text */
    function check(node, text) {
      if (!looksLikeProse(text) || skipped(node)) return;
      context.report({ node, messageId: 'prose', data: { text: text.length > 40 ? `${text.slice(0, 40)}…` : text } });
    }
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        check(node, node.quasis.map((q) => q.value.cooked ?? '').join(' x '));
      },
    };
  },
};
