/**
 * The list's filters and sort as the user set them, and the store query they stand for. Which
 * exchanges match is the companion's rule (`matchesQuery` in the protocol), never decided here.
 */
import type { ExchangeSource, ExchangeStatus, ExchangeSummary, SortKeyName } from '../../companion/protocol';
import type { ExchangeQuery } from './rest';

export type KindFilter = 'turn' | 'prewarm' | 'compaction' | 'other';

export interface ExchangeFilter {
  text: string;
  status: ExchangeStatus | null;
  kind: KindFilter | null;
  /** A sub-agent's name or nickname. */
  agent: string | null;
  session: string | null;
  thread: string | null;
  /** Only cache misses. */
  miss: boolean;
  /** In USD. */
  minCost: number | null;
  /** Requested, sent or served. */
  model: string | null;
  source: ExchangeSource | null;
}

export interface ListSort {
  key: SortKeyName;
  order: 'asc' | 'desc';
}

/** The store's filters plus its sort, as `GET /api/exchanges` takes them (paging aside). */
export type ListQuery = Omit<ExchangeQuery, 'limit' | 'before' | 'cursor'>;

export const EMPTY_FILTER: ExchangeFilter = {
  text: '',
  status: null,
  kind: null,
  agent: null,
  session: null,
  thread: null,
  miss: false,
  minCost: null,
  model: null,
  source: null,
};

/** Turn, prewarm, compaction, or other (non-model requests and model requests without a known kind). */
export function kindOf(s: ExchangeSummary): KindFilter {
  if (s.kind === 'other') return 'other';
  return s.requestKind === 'unknown' ? 'other' : s.requestKind;
}

/** The query for the store: unset filters are left out, so the companion treats them as "any". */
export function listQuery(f: ExchangeFilter, sort: ListSort | null): ListQuery {
  const q: ListQuery = {};
  const text = f.text.trim();
  if (text) q.q = text;
  if (f.status) q.status = f.status;
  if (f.kind) q.kind = f.kind;
  if (f.agent) q.agent = f.agent;
  if (f.session !== null) q.session = f.session;
  if (f.thread !== null) q.thread = f.thread;
  if (f.miss) q.miss = 1;
  if (f.minCost !== null) q.minCost = f.minCost;
  if (f.model) q.model = f.model;
  if (f.source) q.source = f.source;
  if (sort) {
    q.sort = sort.key;
    q.order = sort.order;
  }
  return q;
}

/** With no filter and no sort the list is the live feed, newest first; anything else asks the store. */
export function isQueryActive(q: ListQuery): boolean {
  return Object.keys(q).length > 0;
}
