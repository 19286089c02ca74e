/**
 * Markdown and code to safe HTML, for the concept docs and for text captured from Codex (tool
 * descriptions). Raw HTML is never passed through: markdown-it escapes it, and DOMPurify cleans
 * whatever markdown-it produced before it reaches the page.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import typescript from 'highlight.js/lib/languages/typescript';

hljs.registerLanguage('bash', bash);
hljs.registerLanguage('ini', ini);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('typescript', typescript);
hljs.registerAliases(['sh', 'shell', 'console'], { languageName: 'bash' });
hljs.registerAliases(['toml'], { languageName: 'ini' });

/** A link to another doc by file name, as in `[write_stdin](tool.write_stdin.md)`. */
const DOC_LINK = /^([A-Za-z0-9][\w.-]*)\.md(?:#[\w-]*)?$/;

/** The doc a link points to, or null for any other link. */
export function docLinkTarget(href: string): string | null {
  const m = DOC_LINK.exec(href.trim());
  return m ? m[1] : null;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function highlighted(code: string, lang: string): string {
  const language = hljs.getLanguage(lang) ? lang : null;
  const inner = language ? hljs.highlight(code, { language, ignoreIllegals: true }).value : escapeHtml(code);
  const cls = language ? `hljs language-${escapeHtml(lang)}` : 'hljs';
  return `<pre class="code"><code class="${cls}">${inner}</code></pre>`;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, highlight: (code, lang) => highlighted(code, lang) });

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const target = docLinkTarget(token.attrGet('href') ?? '');
  if (target) {
    // The sheet follows these itself, so they never leave the extension page.
    token.attrSet('href', `#doc/${target}`);
    token.attrSet('data-doc', target);
  } else {
    token.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** The last line of defence: whatever produced `html`, nothing in it can run script. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea'] });
}

/** Markdown (a doc body, a tool description) to sanitised HTML. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(md.render(markdown));
}

/** Code to a sanitised, highlighted `<pre>` block. */
export function renderCode(code: string, lang: string): string {
  return sanitizeHtml(highlighted(code, lang));
}
