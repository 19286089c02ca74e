/**
 * @module Which records an export holds (a session, a time range, everything), read through the
 * store's public interface, oldest first.
 */
import type { ExchangeRecord } from '../../protocol/exchange';
import type { Store } from '../store';

export interface ExportQuery {
  session?: string;
  /** Epoch milliseconds, inclusive. */
  since?: number;
  /** Epoch milliseconds, exclusive. */
  until?: number;
}

export async function exportRecords(store: Store, q: ExportQuery): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const s of [...store.summaries()]) {
    if (q.session && s.sessionId !== q.session) continue;
    if (q.since !== undefined && s.startedAt < q.since) continue;
    if (q.until !== undefined && s.startedAt >= q.until) continue;
    const r = await store.get(s.id);
    if (r) out.push(r);
  }
  return out;
}
