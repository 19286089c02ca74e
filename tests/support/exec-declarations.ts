/**
 * Reads the nested tools, with their parameter names, that the code-mode `exec` tool declares in
 * its description as TypeScript: `declare const tools: { name(args: { param?: type; … }): …; };`.
 * Test-only: the tool inventory needs parameter names, which the companion's analysis does not.
 */

export interface NestedToolDeclaration {
  /** As declared, namespace joined with `__` (`multi_agent_v1__spawn_agent`). */
  name: string;
  /** Top-level members of `args`; empty for freeform tools and tools without arguments. */
  params: string[];
  /** Declared as `(input: string)`: the tool takes free text, like `apply_patch`. */
  freeform: boolean;
  /** The description section of this tool, from its `### \`name\`` heading to the end of its declaration. */
  section: string | null;
}

const DECLARATION = /declare const tools:\s*\{\s*([A-Za-z_$][\w$]*)\s*\(\s*(input|args)\s*:\s*/g;

/** Text of `{…}` at the outermost level, without nested braces, brackets, parentheses or comments. */
function topLevelText(src: string, open: number): string {
  let depth = 0;
  let out = '';
  let quote: string | null = null;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (quote) {
      if (ch === quote && src[i - 1] !== '\\') quote = null;
      if (depth === 1) out += ch;
      continue;
    }
    if (ch === '/' && src[i + 1] === '/') {
      // Comments carry descriptions that may contain `name:` text; they are not members.
      const end = src.indexOf('\n', i);
      i = end < 0 ? src.length : end - 1;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === '{' || ch === '[' || ch === '(') {
      depth++;
      if (depth === 1) out += ch;
      continue;
    }
    if (ch === '}' || ch === ']' || ch === ')') {
      depth--;
      if (depth === 0) return out;
      continue;
    }
    if (depth === 1) out += ch;
  }
  return out;
}

const MEMBER = /(?:^|[{;,\n])\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$]*))\s*\??\s*:/g;

function memberNames(objectText: string): string[] {
  const names: string[] = [];
  for (const m of objectText.matchAll(MEMBER)) names.push(m[1] ?? m[2] ?? m[3]);
  return names;
}

function sectionOf(description: string, name: string, declarationAt: number): string | null {
  const heading = description.lastIndexOf(`### \`${name}\``, declarationAt);
  if (heading < 0) return null;
  // Descriptions contain their own `##` headings, so the section ends with its declaration block.
  const fence = description.indexOf('\n```', declarationAt);
  return description.slice(heading, fence < 0 ? undefined : fence + 4).trim();
}

export function parseExecDeclarations(description: string): NestedToolDeclaration[] {
  const found = new Map<string, NestedToolDeclaration>();
  for (const m of description.matchAll(DECLARATION)) {
    const [, name, kind] = m;
    const after = (m.index ?? 0) + m[0].length;
    const freeform = kind === 'input';
    const params = !freeform && description[after] === '{' ? memberNames(topLevelText(description, after)) : [];
    found.set(name, { name, params, freeform, section: sectionOf(description, name, m.index ?? 0) });
  }
  return [...found.values()];
}
