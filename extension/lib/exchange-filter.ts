/** The list's filters (search text, status, request kind, agent, session, thread) as one pure predicate. */
import type { ExchangeStatus, ExchangeSummary } from '../../companion/protocol';

export type KindFilter = 'turn' | 'prewarm' | 'compaction' | 'other';
export type AgentFilter = 'main' | 'subagent';

export interface ExchangeFilter {
  text: string;
  status: ExchangeStatus | null;
  kind: KindFilter | null;
  agent: AgentFilter | null;
  session: string | null;
  thread: string | null;
}

export const EMPTY_FILTER: ExchangeFilter = { text: '', status: null, kind: null, agent: null, session: null, thread: null };

/** Turn, prewarm, compaction, or other (non-model requests and model requests without a known kind). */
export function kindOf(s: ExchangeSummary): KindFilter {
  if (s.kind === 'other') return 'other';
  return s.requestKind === 'unknown' ? 'other' : s.requestKind;
}

/** Summaries are replaced, never mutated, so the search text can be kept per object. */
const searchCache = new WeakMap<ExchangeSummary, string>();

/** The text a search looks in, lower-cased. */
export function searchable(s: ExchangeSummary): string {
  const cached = searchCache.get(s);
  if (cached !== undefined) return cached;
  const text = [
    s.id,
    // The served model and the requested (and sent) ones: a search finds the exchange by either.
    s.model,
    s.route.modelRequested,
    s.route.modelSent,
    s.preview,
    s.status,
    s.path,
    s.agent.name,
    s.agent.nickname,
    s.sessionId,
    s.threadId,
    s.responseId,
    s.error?.code,
    s.error?.message,
    s.route.profileId,
    ...(s.cache?.reasons ?? []),
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
  searchCache.set(s, text);
  return text;
}

export function isFilterActive(f: ExchangeFilter): boolean {
  return f.text.trim() !== '' || f.status !== null || f.kind !== null || f.agent !== null || f.session !== null || f.thread !== null;
}

/** A predicate for `f`; build it once per filter change, call it per row. */
export function filterPredicate(f: ExchangeFilter): (s: ExchangeSummary) => boolean {
  const needle = f.text.trim().toLowerCase();
  return (s) =>
    (f.status === null || s.status === f.status) &&
    (f.kind === null || kindOf(s) === f.kind) &&
    (f.agent === null || s.agent.role === f.agent) &&
    (f.session === null || s.sessionId === f.session) &&
    (f.thread === null || s.threadId === f.thread) &&
    (needle === '' || searchable(s).includes(needle));
}
