/** Parses one concept doc file: the small front matter block (`key: value`, `key: [a, b]`) and the body. */

export type FrontMatterValue = string | string[];

export interface FrontMatter {
  meta: Record<string, FrontMatterValue>;
  /** The text after the block, trimmed. */
  body: string;
}

function scalar(raw: string): string {
  const v = raw.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1); // not valid JSON escapes: keep the text between the quotes
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

function value(raw: string): FrontMatterValue {
  const v = raw.trim();
  if (!(v.startsWith('[') && v.endsWith(']'))) return scalar(v);
  const inner = v.slice(1, -1).trim();
  return inner === '' ? [] : inner.split(',').map(scalar);
}

/** A doc without a block has empty `meta` and the whole text as `body`. */
export function parseFrontMatter(text: string): FrontMatter {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(normalised);
  if (!match) return { meta: {}, body: normalised.trim() };
  const meta: Record<string, FrontMatterValue> = {};
  for (const line of match[1].split('\n')) {
    const m = /^([A-Za-z][\w-]*)\s*:(.*)$/.exec(line);
    if (m) meta[m[1]] = value(m[2]);
  }
  return { meta, body: normalised.slice(match[0].length).trim() };
}

export interface ConceptDoc {
  /** File name without `.md`: the doc's id in every language. */
  name: string;
  lang: string;
  title: string;
  kind: 'concept' | 'tool';
  /** Tool docs: the key (`namespace.name` when namespaced). */
  tool: string | null;
  namespace: string | null;
  params: string[];
  /** Markdown after the front matter. */
  body: string;
}

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function text(v: string | string[] | undefined): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function parseDoc(name: string, lang: string, source: string): ConceptDoc {
  const { meta, body } = parseFrontMatter(source);
  return {
    name,
    lang,
    title: text(meta.title) ?? name,
    kind: meta.kind === 'tool' ? 'tool' : 'concept',
    tool: text(meta.tool),
    namespace: text(meta.namespace),
    params: list(meta.params),
    body,
  };
}
