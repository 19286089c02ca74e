/**
 * @module The columns of an exchange row, derived from its summary (the summary itself is
 * stored whole in `bodies`, as JSON). Columns exist to filter, sort and roll up in SQL; the
 * summary stays the one truth returned to callers. Sort keys are never NULL (unknown is -1, below
 * every real value), so keyset cursors over (key, id) page through NULLs too.
 */
import type { ExchangeSummary } from '../../protocol/exchange';
import { sortValue, summaryText } from '../../protocol/exchange-match';
import { MEASURE_NAMES, measuresOf } from './measures';

/** `''` stands for "no session" so a session key can be a primary key. */
export const sessionKey = (sessionId: string | null): string => sessionId ?? '';

/** Sort keys clients may ask for, and the column holding each. */
export const SORT_COLUMNS = {
  time: 'started_at',
  cost: 'sort_cost',
  input: 'sort_input',
  output: 'sort_output',
  cachedShare: 'sort_cached_share',
  duration: 'sort_duration',
  missCost: 'sort_miss_cost',
} as const;
export type SortKey = keyof typeof SORT_COLUMNS;

export type Row = Record<string, string | number | null>;

/** Every column of the row but the payload ones. */
export function columnsOf(s: ExchangeSummary): Row {
  const row: Row = {
    id: s.id,
    session_key: sessionKey(s.sessionId),
    thread_id: s.threadId,
    status: s.status,
    kind: s.kind,
    request_kind: s.requestKind,
    transport: s.transport,
    source: s.source,
    agent_name: s.agent.name,
    agent_nickname: s.agent.nickname,
    model_key: s.model ?? s.route.modelSent ?? s.route.modelRequested ?? '',
    model: s.model,
    model_requested: s.route.modelRequested,
    model_sent: s.route.modelSent,
    verdict: s.cache?.verdict ?? null,
    started_at: s.startedAt,
    last_at: s.endedAt ?? s.startedAt,
    bucket: bucketOf(s.startedAt),
    search_text: summaryText(s),
    response_id: s.responseId,
  };
  for (const k of Object.keys(SORT_COLUMNS) as SortKey[]) if (k !== 'time') row[SORT_COLUMNS[k]] = sortValue(s, k);
  const m = measuresOf(s);
  for (const name of MEASURE_NAMES) row[`m_${name}`] = m[name];
  return row;
}

/** Roll-up buckets are 15 minutes of UTC: every time zone in use is offset by a multiple of 15 min. */
export const BUCKET_MS = 15 * 60 * 1000;
export const bucketOf = (t: number): number => Math.floor(t / BUCKET_MS) * BUCKET_MS;
