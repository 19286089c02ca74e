/**
 * @module The history, in the capture worker: the store (synchronous file and, later, database
 * work) and everything computed from it (roll-ups, exports, imports) live in this thread, so no
 * storage call ever runs on the thread that forwards Codex's bytes. The main thread reaches these
 * operations through `HistoryClient` (history-client.ts), one message per call.
 */
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import type { LiveUsage } from '../protocol/live';
import type { UsageQuery } from '../context';
import { createReports } from '../reports';
import { EXPORT_FORMATS, type ExportFormat } from '../store/export';
import { exportRecords, type ExportQuery } from '../store/export/select';
import { importHistory, type ImportSources } from '../store/import/import';
import { loadPrices } from '../store/prices-file';
import type { ListQuery, Store } from '../store/store';

/** What the main thread keeps of the history to answer the live feed at once (its snapshot). */
export interface HistoryMirror {
  recent: ExchangeSummary[];
  usage: LiveUsage;
}

export function historyOps(store: Store, home: string, inflightResponseIds: () => Iterable<string | null>) {
  const reports = createReports(store);
  return {
    list: (q: ListQuery) => store.list(q),
    get: (id: string) => store.get(id),
    /** Records from elsewhere (a fixture, a seeded history): stored as capture stores its own. */
    append: (record: ExchangeRecord) => store.append(record),
    attachAnalysis: (...a: Parameters<Store['attachAnalysis']>) => store.attachAnalysis(...a),
    clear: () => store.clear(),
    deleteSession: (id: string) => store.deleteSession(id),
    stats: () => ({ ...store.stats(), maxBytes: store.maxBytes }),
    prune: () => ({ deleted: store.pruneIfNeeded(), bytes: store.bytes(), maxBytes: store.maxBytes }),
    usage: (q: UsageQuery) => reports.usage(q),
    sessions: () => reports.sessions(),
    liveUsage: () => reports.live(),
    mirror: (n: number): HistoryMirror => ({ recent: store.list({ limit: n }).items, usage: reports.live() }),
    /** Rendered here too: an export of a long history is megabytes of text. */
    export: async (format: ExportFormat, q: ExportQuery) => EXPORT_FORMATS[format].render(await exportRecords(store, q)),
    close: () => store.close(),
    import: (sources: ImportSources) => importHistory({ store, prices: loadPrices(home).table, inflightResponseIds }, sources),
  };
}

export type HistoryOps = ReturnType<typeof historyOps>;
export type HistoryOp = keyof HistoryOps;
