/**
 * @module The searchable text of a stored item: what the user typed, what the assistant wrote,
 * reasoning summaries, tool names with their arguments and outputs (error messages are searched
 * in the summary). Codex's own
 * instructions (developer and system messages, tool lists) are left out: every session carries
 * them, so a search would find everything. Lower-cased, so the trigram index and the short-query
 * scan agree on what matches.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function partTexts(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) return [];
  return v.flatMap((p) => (isRecord(p) && typeof p.text === 'string' ? [p.text] : typeof p === 'string' ? [p] : []));
}

function pieces(item: Record<string, unknown>): string[] {
  switch (item.type) {
    case 'message':
      return item.role === 'user' || item.role === 'assistant' ? partTexts(item.content) : [];
    case undefined:
      return item.role === 'user' || item.role === 'assistant' ? partTexts(item.content) : [];
    case 'reasoning':
      return partTexts(item.summary);
    case 'function_call':
    case 'custom_tool_call':
      return [item.name, item.arguments, item.input].filter((v): v is string => typeof v === 'string');
    case 'function_call_output':
    case 'custom_tool_call_output':
      return partTexts(item.output);
    case 'local_shell_call':
      return isRecord(item.action) ? [JSON.stringify(item.action.command ?? '')] : [];
    case 'web_search_call':
      return isRecord(item.action) && typeof item.action.query === 'string' ? [item.action.query] : [];
    default:
      return [];
  }
}

/** The item's searchable text, or null when it has none. */
export function itemText(item: unknown): string | null {
  if (!isRecord(item)) return null;
  const text = pieces(item).join('\n').toLowerCase();
  return text ? text : null;
}
