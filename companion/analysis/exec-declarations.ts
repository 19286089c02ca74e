/**
 * @module What the panel shows of each nested tool the code-mode `exec` tool declares in its
 * description (codex-tools-0.169.md): its section from the `### \`name\`` heading to the end of
 * its `exec tool declaration:` block, and the TypeScript declaration. The token spans of the same
 * tools are cut by exec-nested.ts, at boundaries the tokenizer keeps.
 */
import { splitDeclaredName } from '../protocol/tool-names';

export interface NestedDeclaration {
  /** As declared: `apply_patch`, `clock__curr_time`, `mcp__server__tool`. */
  declaredName: string;
  namespace: string | null;
  name: string;
  /** The section from its heading to the end of its declaration block: what the model reads about this tool. */
  section: string;
  /** The TypeScript `declare const tools: …` line(s), when present. */
  declaration: string | null;
  /** Declared as `(input: string)`: free text, like `apply_patch`. */
  freeform: boolean;
}

const HEADING = /^### `([^`\n]+)`[ \t]*$/gm;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function declarationOf(section: string): string | null {
  const at = section.indexOf('declare const tools');
  if (at < 0) return null;
  const end = section.indexOf('\n```', at);
  return section.slice(at, end < 0 ? undefined : end).trim();
}

/** Text before the first nested section: the description of `exec` itself. */
export function execPreamble(description: string): string {
  // `search` ignores `lastIndex`; exec() on the shared global regex would leave it set for matchAll.
  const first = description.search(/^### `[^`\n]+`[ \t]*$/m);
  return first >= 0 ? description.slice(0, first).trimEnd() : description;
}

export function parseExecDeclarations(description: string): NestedDeclaration[] {
  const headings = [...description.matchAll(HEADING)].map((m) => ({ at: m.index ?? 0, name: m[1] }));
  return headings.map((h, i) => {
    const next = headings[i + 1]?.at ?? description.length;
    const body = description.slice(h.at, next);
    // A section ends with its declaration fence; text after it (a `## namespace` header) belongs to the next tool.
    const decl = body.indexOf('exec tool declaration:');
    const open = decl >= 0 ? body.indexOf('```', decl) : -1;
    const close = open >= 0 ? body.indexOf('\n```', open + 3) : -1;
    const section = (close >= 0 ? body.slice(0, close + 4) : body).trim();
    const declaration = declarationOf(section);
    return {
      declaredName: h.name,
      ...splitDeclaredName(h.name),
      section,
      declaration,
      freeform: declaration !== null && new RegExp(`${escapeRegExp(h.name)}\\s*\\(\\s*input\\s*:`).test(declaration),
    };
  });
}
