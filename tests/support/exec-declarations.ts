/**
 * Reads the nested tools, with their parameter names, that the code-mode `exec` tool declares in
 * its description as TypeScript: `declare const tools: { name(args: { param?: type; … }): …; };`.
 * Sections come from the companion's parser (companion/analysis/exec-declarations.ts); this adds
 * the parameter names the tool inventory needs. Test-only.
 */
import { parseExecDeclarations as parseSections } from '../../companion/analysis/exec-declarations';

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

/** Parameter names of one nested tool, from its `declare const tools: { name(args: {…}) }` block. */
function paramsOf(declaration: string, name: string): string[] {
  const m = new RegExp(`${name.replace(/[$]/g, '\\$')}\\s*\\(\\s*args\\s*:\\s*`).exec(declaration);
  if (!m) return [];
  const after = m.index + m[0].length;
  return declaration[after] === '{' ? memberNames(topLevelText(declaration, after)) : [];
}

/** The extension's reading of the sections, plus the parameter names the tool inventory needs. */
export function parseExecDeclarations(description: string): NestedToolDeclaration[] {
  return parseSections(description).map((d) => ({
    name: d.declaredName,
    params: d.freeform || !d.declaration ? [] : paramsOf(d.declaration, d.declaredName),
    freeform: d.freeform,
    section: d.section,
  }));
}
