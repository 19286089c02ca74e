/**
 * @module HTML export: one self-contained page per session, readable offline: the exchanges in
 * order, and for each its context (Tools → Instructions → Input), the response and the usage.
 *
 * Captured content is hostile by assumption. The page carries a CSP meta tag (`default-src
 * 'none'`, the one inline script and the one style allowed by their hashes, nothing else), the data
 * travels as JSON inside a non-executed `application/json` block with every `<`, `>`, `&` and line
 * separator escaped (so no text can close the block), and the script renders it only through
 * `textContent`: no content is ever parsed as HTML.
 */
import { createHash } from 'node:crypto';
import { blendedTokens } from '../../analysis/token-math';
import { arr, isObj, str, type Json } from '../../lib/json';
import type { ExchangeRecord } from '../../protocol/exchange';
import { COMPANION_VERSION } from '../../version';

interface Block {
  label: string;
  text: string;
}

interface PageExchange {
  id: string;
  startedAt: string;
  title: string;
  meta: string;
  tools: Block[];
  instructions: Block[];
  input: Block[];
  response: Block[];
  usage: string;
}

const clip = (s: string, n = 20000) => (s.length > n ? `${s.slice(0, n)}\n… (${s.length - n} more characters)` : s);

function textOf(item: Json): string {
  const parts = arr(item.content)
    .map((c) => (isObj(c) ? (str(c.text) ?? str(c.refusal) ?? '') : ''))
    .filter(Boolean);
  if (parts.length) return parts.join('\n');
  for (const k of ['arguments', 'input', 'output', 'summary', 'encrypted_content']) {
    const v = item[k];
    if (typeof v === 'string') return v;
    if (v !== undefined && v !== null) return JSON.stringify(v, null, 2);
  }
  return JSON.stringify(item, null, 2);
}

function labelOf(item: Json): string {
  const type = str(item.type) ?? 'item';
  if (type === 'message') return `${str(item.role) ?? 'message'} message`;
  const name = str(item.name);
  return name ? `${type} ${str(item.namespace) ? `${String(item.namespace)}.` : ''}${name}` : type;
}

const block = (item: unknown): Block =>
  isObj(item) ? { label: labelOf(item), text: clip(textOf(item)) } : { label: 'item', text: clip(JSON.stringify(item)) };

function toolBlocks(body: Json): Block[] {
  const tools: Block[] = arr(body.tools).map((t) => {
    const tool = isObj(t) ? t : {};
    return {
      label: `tool ${str(tool.name) ?? str(tool.type) ?? '?'}`,
      text: clip(str(tool.description) ?? JSON.stringify(tool, null, 2), 4000),
    };
  });
  for (const item of arr(body.input))
    if (isObj(item) && item.type === 'additional_tools')
      for (const ns of arr(item.tools))
        if (isObj(ns)) tools.push({ label: `tools ${str(ns.name) ?? ''}`, text: clip(JSON.stringify(ns, null, 2), 4000) });
  return tools;
}

/** Codex 0.169 sends its instructions as the leading developer messages (architecture.md, request sections). */
function splitInput(body: Json): { instructions: Block[]; input: Block[] } {
  const instructions: Block[] = [];
  if (typeof body.instructions === 'string') instructions.push({ label: 'instructions', text: clip(body.instructions) });
  const items = arr(body.input).filter((i) => !(isObj(i) && i.type === 'additional_tools'));
  let lead = 0;
  while (lead < items.length && isObj(items[lead]) && (items[lead] as Json).role === 'developer') lead++;
  return { instructions: [...instructions, ...items.slice(0, lead).map(block)], input: items.slice(lead).map(block) };
}

function usageLine(r: ExchangeRecord): string {
  const u = r.usage;
  if (!u) return 'usage unknown';
  const n = (v: number | null) => (v === null ? 'unknown' : v.toLocaleString('en-US'));
  const blended = blendedTokens(u);
  return [
    `input ${n(u.inputTokens)} (cached ${n(u.cachedTokens)})`,
    `output ${n(u.outputTokens)} (reasoning ${n(u.reasoningTokens)})`,
    `as Codex counts ${r.codexCounted && blended !== null ? n(blended) : 'not counted'}`,
    `cost ${r.costUsd === null ? 'unknown' : `$${r.costUsd.toFixed(4)}`}`,
  ].join(' · ');
}

function pageExchange(r: ExchangeRecord): PageExchange {
  const body = isObj(r.request.body) ? r.request.body : {};
  const { instructions, input } = splitInput(body);
  const agent = r.agent.role === 'subagent' ? `sub-agent ${r.agent.nickname ?? r.agent.name ?? ''}` : 'main agent';
  return {
    id: r.id,
    startedAt: new Date(r.startedAt).toISOString(),
    title: `${r.requestKind} · ${r.model ?? 'unknown model'} · ${r.status}`,
    meta: [
      agent,
      r.transport,
      r.source === 'rollout' ? 'from a Codex rollout (no headers, no tool schemas)' : 'captured',
      `thread ${r.threadId ?? '?'}`,
    ].join(' · '),
    tools: toolBlocks(body),
    instructions,
    input,
    response: r.response.output.length ? r.response.output.map(block) : r.error ? [{ label: 'error', text: r.error.message }] : [],
    usage: usageLine(r),
  };
}

/** JSON that cannot end the block it sits in, nor be read as markup anywhere. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Runs in the exported page: builds the DOM from the data block with textContent only. */
const SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  document.getElementById('title').textContent = data.title;
  document.getElementById('summary').textContent = data.summary;
  var list = document.getElementById('list');
  var main = document.getElementById('exchanges');
  data.exchanges.forEach(function (x, i) {
    var li = el('li');
    var a = el('a', null, (i + 1) + '. ' + x.startedAt.slice(11, 19) + ' ' + x.title);
    a.href = '#x-' + x.id;
    li.appendChild(a);
    list.appendChild(li);
    var s = el('section', 'exchange');
    s.id = 'x-' + x.id;
    s.appendChild(el('h2', null, (i + 1) + '. ' + x.title));
    s.appendChild(el('p', 'meta', x.startedAt + ' · ' + x.meta));
    s.appendChild(el('p', 'usage', x.usage));
    [['Tools', x.tools], ['Instructions', x.instructions], ['Input', x.input], ['Response', x.response]].forEach(function (part) {
      var d = el('details');
      if (part[0] === 'Input' || part[0] === 'Response') d.open = true;
      d.appendChild(el('summary', null, part[0] + ' (' + part[1].length + ')'));
      part[1].forEach(function (b) {
        d.appendChild(el('div', 'label', b.label));
        d.appendChild(el('pre', null, b.text));
      });
      s.appendChild(d);
    });
    main.appendChild(s);
  });
})();`;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;display:flex;color:#1f2328;background:#fff}
nav{width:22rem;flex:none;height:100vh;overflow:auto;position:sticky;top:0;border-right:1px solid #d0d7de;padding:1rem;box-sizing:border-box}
nav ol{padding-left:1.2rem}main{flex:1;padding:1rem 2rem;min-width:0}h1{font-size:1.3rem}h2{font-size:1.05rem;margin-bottom:.2rem}
.meta,.usage{color:#57606a;margin:.2rem 0}.label{font-weight:600;margin-top:.6rem}pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.5rem;border-radius:4px;max-height:30rem;overflow:auto}
details{margin:.4rem 0}summary{cursor:pointer;font-weight:600}.exchange{border-top:1px solid #d0d7de;padding-top:.5rem}`;

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

export function toHtml(records: readonly ExchangeRecord[]): string {
  const sessions = [...new Set(records.map((r) => r.sessionId ?? 'no session'))];
  const counted = records.reduce((n, r) => n + (r.codexCounted ? (blendedTokens(r.usage) ?? 0) : 0), 0);
  const data = {
    title: `Codex session ${sessions.join(', ') || '(empty)'}`,
    summary: `${records.length} exchanges · as Codex counts ${counted.toLocaleString('en-US')} tokens · exported by codex-devtools ${COMPANION_VERSION}`,
    exchanges: records.map(pageExchange),
  };
  const csp = `default-src 'none'; script-src ${sha256(SCRIPT)}; style-src ${sha256(STYLE)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>Codex session export</title>
<style>${STYLE}</style>
</head>
<body>
<nav><h1 id="title"></h1><p id="summary"></p><ol id="list"></ol></nav>
<main id="exchanges"></main>
<script type="application/json" id="data">${scriptSafeJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
