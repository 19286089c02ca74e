/**
 * @module What the exchange list's query parameters mean for one summary: the filter test, the
 * searchable summary text and the value each sort key orders by. The store's SQL columns are
 * derived from these, and the extension places a live exchange under the user's current query
 * with them, so both sides share one definition of "matches" and "sorts before".
 */
import type { ExchangeSummary } from './exchange';
import type { SortKeyName } from './history';

/** The filters of `GET /api/exchanges` (the list query without its page and sort fields). */
export interface ExchangeMatchQuery {
  session?: string;
  thread?: string;
  /** A sub-agent's name or nickname. */
  agent?: string;
  status?: string;
  /** `model`/`other`, or a request kind (`turn`, `prewarm`, …). */
  kind?: string;
  /** Requested, sent or served. */
  model?: string;
  transport?: string;
  /** Cache verdict. */
  verdict?: string;
  source?: string;
  minCost?: number;
  minInput?: number;
  /** Only cache misses (true, or 1 as the API sends it). */
  miss?: boolean | number;
  /** Start time: `since` inclusive, `until` exclusive (epoch ms). */
  since?: number;
  until?: number;
  /** Text search. Here over the summary text; the store also searches the exchange's own items. */
  q?: string;
}

/**
 * The value a summary sorts by. Never null: unknown is -1, below every real value, so keyset
 * cursors over (key, id) page through unknowns too.
 */
export function sortValue(s: ExchangeSummary, key: SortKeyName): number {
  const u = s.usage;
  switch (key) {
    case 'time':
      return s.startedAt;
    case 'cost':
      return s.costUsd ?? -1;
    case 'input':
      return u?.inputTokens ?? -1;
    case 'output':
      return u?.outputTokens ?? -1;
    case 'cachedShare':
      return u && u.inputTokens && u.inputTokens > 0 ? (u.cachedTokens ?? 0) / u.inputTokens : -1;
    case 'duration':
      return s.endedAt !== null ? s.endedAt - s.startedAt : -1;
    case 'missCost':
      return s.cache?.miss ? (s.cache.missCostUsd ?? 0) : -1;
  }
}

/** The summary's searchable text, lower-cased (the store indexes it beside the items' text). */
export function summaryText(s: ExchangeSummary): string {
  // The requested and sent models too: a search finds an exchange by the model Codex asked for, whichever answered.
  return [
    s.id,
    s.model,
    s.route.modelRequested,
    s.route.modelSent,
    s.preview,
    s.path,
    s.error?.message,
    s.agent.name,
    s.agent.nickname,
    s.sessionId,
    s.threadId,
    s.turnId,
  ]
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase();
}

/**
 * Whether a summary passes the query's filters, as the store's SQL decides it. The text search
 * here sees the summary only: an exchange found by its items alone (a tool output, an older
 * prompt) is found by the store and not by this test.
 */
export function matchesQuery(s: ExchangeSummary, f: ExchangeMatchQuery): boolean {
  const has = <K extends keyof ExchangeMatchQuery>(k: K): boolean => f[k] !== undefined;
  return (
    (!has('session') || (s.sessionId ?? '') === f.session) &&
    (!has('thread') || s.threadId === f.thread) &&
    (!has('agent') || s.agent.name === f.agent || s.agent.nickname === f.agent) &&
    (!has('status') || s.status === f.status) &&
    (!has('kind') || s.kind === f.kind || s.requestKind === f.kind) &&
    (!has('model') || s.model === f.model || s.route.modelRequested === f.model || s.route.modelSent === f.model) &&
    (!has('transport') || s.transport === f.transport) &&
    (!has('verdict') || (s.cache?.verdict ?? null) === f.verdict) &&
    (!has('source') || s.source === f.source) &&
    (f.minCost === undefined || sortValue(s, 'cost') >= f.minCost) &&
    (f.minInput === undefined || sortValue(s, 'input') >= f.minInput) &&
    (!f.miss || sortValue(s, 'missCost') >= 0) &&
    (f.since === undefined || s.startedAt >= f.since) &&
    (f.until === undefined || s.startedAt < f.until) &&
    (!f.q || summaryText(s).includes(f.q.toLowerCase()))
  );
}

/**
 * Whether `a` comes before `b` in a list sorted by `sort` (none: newest first by id), with the
 * id breaking ties as the store's keyset order does.
 */
export function sortsBefore(
  a: ExchangeSummary,
  b: ExchangeSummary,
  sort: SortKeyName | undefined,
  order: 'asc' | 'desc' = 'desc',
): boolean {
  const desc = order === 'desc';
  if (sort) {
    const ka = sortValue(a, sort);
    const kb = sortValue(b, sort);
    if (ka !== kb) return desc ? ka > kb : ka < kb;
  }
  return desc ? a.id > b.id : a.id < b.id;
}
