/**
 * @module The nested tools that the code-mode `exec` tool declares in its description
 * (codex-tools-0.169.md): each is a `### \`name\`` section ending with its
 * `exec tool declaration:` TypeScript block; names join namespace and tool with `__`.
 */
import { splitDeclaredName } from '../protocol/tool-names';

export interface NestedToolText {
  /** As declared (`apply_patch`, `clock__curr_time`, `mcp__server__tool`). */
  declaredName: string;
  namespace: string | null;
  name: string;
  /** The section's text, including any `## <namespace>` header just before it. */
  text: string;
}

export interface ExecDescriptionParts {
  /** Everything before the first nested section. */
  preamble: string;
  nested: NestedToolText[];
}

const HEADING = /^### `([^`\n]+)`[ \t]*$/gm;

/**
 * Whether `pos` starts a new line with a character that the o200k pre-tokenizer can never join to
 * the text before it (see context.ts): the previous character is a newline and this one is
 * neither whitespace nor `/`.
 */
export function isCleanCut(text: string, pos: number): boolean {
  return pos > 0 && pos < text.length && text[pos - 1] === '\n' && !/[\s/]/.test(text[pos]);
}

/** First position at or after `from` that starts a non-blank line, or -1. */
function nextLineStart(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i])) i++;
  return i < text.length && text[i - 1] === '\n' ? i : -1;
}

/**
 * Where the section of heading `at` starts: at the first line after the previous section's
 * declaration fence when that text (a `## namespace` header) comes before the heading, else at
 * the heading itself.
 */
function sectionStart(description: string, previousHeading: number, at: number): number {
  const decl = description.indexOf('exec tool declaration:', previousHeading);
  const open = decl >= 0 && decl < at ? description.indexOf('```', decl) : -1;
  const close = open >= 0 ? description.indexOf('\n```', open + 3) : -1;
  const afterFence = close >= 0 && close < at ? description.indexOf('\n', close + 4) : -1;
  const gapStart = afterFence >= 0 ? nextLineStart(description, afterFence + 1) : -1;
  return gapStart >= 0 && gapStart < at && isCleanCut(description, gapStart) ? gapStart : at;
}

/**
 * Splits an exec description at its nested sections. Every cut is a clean cut, so the parts'
 * token counts add up to the whole description's. A description without nested sections is all
 * preamble.
 */
export function splitExecDescription(description: string): ExecDescriptionParts {
  const headings = [...description.matchAll(HEADING)]
    .map((m) => ({ at: m.index ?? 0, name: m[1] }))
    .filter((h) => isCleanCut(description, h.at));
  if (headings.length === 0) return { preamble: description, nested: [] };
  const starts = headings.map((h, i) => (i === 0 ? h.at : sectionStart(description, headings[i - 1].at, h.at)));
  const nested = headings.map((h, i) => ({
    declaredName: h.name,
    ...splitDeclaredName(h.name),
    text: description.slice(starts[i], starts[i + 1] ?? description.length),
  }));
  return { preamble: description.slice(0, starts[0]), nested };
}
