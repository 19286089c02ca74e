/**
 * @module A session's title and working directory, read from a request's input: the title is
 * the first text the user typed (not the blocks Codex writes in the user's role, see
 * `userSection`), the working directory the `<cwd>` of Codex's `<environment_context>`.
 */
import { SECTION, userSection } from '../protocol/section-names';

export interface SessionContext {
  title: string | null;
  cwd: string | null;
}

/** Titles are for lists: the first line-joined characters of the prompt. */
export const TITLE_CHARS = 200;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function texts(item: Record<string, unknown>): string[] {
  if (typeof item.content === 'string') return [item.content];
  if (!Array.isArray(item.content)) return [];
  return item.content.flatMap((p) => (isRecord(p) && typeof p.text === 'string' ? [p.text] : []));
}

function cwdOf(text: string): string | null {
  const m = /<cwd>([^<]*)<\/cwd>/.exec(text);
  const cwd = m?.[1].trim();
  return cwd ? cwd : null;
}

export function sessionContext(input: readonly unknown[]): SessionContext {
  let title: string | null = null;
  let cwd: string | null = null;
  for (const item of input) {
    if (!isRecord(item) || item.role !== 'user' || (item.type !== undefined && item.type !== 'message')) continue;
    for (const text of texts(item)) {
      const section = userSection(text);
      if (section === SECTION.environment) cwd ??= cwdOf(text);
      else if (section === SECTION.user && title === null) {
        const t = text.replace(/\s+/g, ' ').trim();
        if (t) title = t.slice(0, TITLE_CHARS);
      }
    }
    if (title !== null && cwd !== null) break;
  }
  return { title, cwd };
}
