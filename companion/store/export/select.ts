/**
 * @module Which records an export holds: the exchanges a list query selects (a session, a time
 * range, the panel's current filter and search, or everything), read through the store a page at
 * a time, oldest first.
 */
import type { ExchangeRecord } from '../../protocol/exchange';
import type { ExchangeFilter } from '../sqlite/query';
import type { Store } from '../store';

/** The list's filters (`GET /api/exchanges` without paging or sort): what the panel shows is what it exports. */
export type ExportQuery = ExchangeFilter;

export async function exportRecords(store: Store, q: ExportQuery): Promise<ExchangeRecord[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    // By start time, so the file reads in the order things happened.
    const page = store.list({ ...q, sort: 'time', order: 'asc', limit: 1000, cursor });
    ids.push(...page.items.map((s) => s.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const out: ExchangeRecord[] = [];
  for (const id of ids) {
    const r = await store.get(id);
    if (r) out.push(r);
  }
  return out;
}
