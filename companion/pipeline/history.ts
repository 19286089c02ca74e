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
import type { ImportSources } from '../store/import/import';
import type { ListQuery, Store } from '../store/store';
import { importLegacyStore } from '../store/migrate-legacy';
import type { Logger } from '../lib/log';
import type { AnalysisEngine } from './analysis';

/** What the main thread keeps of the history to answer the live feed at once (its snapshot). */
export interface HistoryMirror {
  recent: ExchangeSummary[];
  usage: LiveUsage;
}

export interface HistoryParts {
  /** Response ids of exchanges still streaming (an import must not take them for its own). */
  inflightResponseIds(): Iterable<string | null>;
  /** Told what each import added, a page of ids at a time (absent: nobody asked). */
  onImported?: (ids: string[], last: boolean) => void;
}

export function historyOps(store: Store, home: string, log: Logger, analysis: Pick<AnalysisEngine, 'run'>, parts: HistoryParts) {
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
    sessionReport: (sessionId: string | null) => reports.session(sessionId),
    sessionList: (...a: Parameters<Store['sessions']>) => store.sessions(...a),
    mostExpensive: (...a: Parameters<Store['mostExpensive']>) => store.mostExpensive(...a),
    cacheMissesByCost: (...a: Parameters<Store['cacheMissesByCost']>) => store.cacheMissesByCost(...a),
    daily: (...a: Parameters<Store['daily']>) => store.daily(...a),
    liveUsage: () => reports.live(),
    mirror: (n: number): HistoryMirror => ({ recent: store.list({ limit: n }).items, usage: reports.live() }),
    /** Rendered here too: an export of a long history is megabytes of text. */
    export: async (format: ExportFormat, q: ExportQuery) => EXPORT_FORMATS[format].render(await exportRecords(store, q)),
    close: () => store.close(),
    /** A 0.1.0 history in the state directory, moved into the database (the old files go once it is all in). */
    migrateLegacy: () => importLegacyStore(store, home, log),
    /**
     * Fault injection for the disk-full tests: caps the database's pages (null lifts the cap), as a
     * full disk would; 'current' first gives the file's free pages back, so that every write that
     * needs a page fails, whatever earlier writes left free. Refused unless
     * CODEX_DEVTOOLS_FAULT_INJECTION=1 was set for this process.
     */
    capPages: (pages: number | 'current' | null) => {
      if (process.env.CODEX_DEVTOOLS_FAULT_INJECTION !== '1') throw new Error('fault injection is off');
      if (pages === 'current') store.database.pragma('incremental_vacuum');
      const n = pages === 'current' ? (store.database.pragma('page_count', { simple: true }) as number) : (pages ?? 4294967294);
      store.database.pragma(`max_page_count = ${n}`);
    },
    /**
     * Imported records go through the capture's own analysis engine, in their threads' order.
     * Loaded on the first import: it validates with the protocol's schemas, which the worker
     * otherwise never loads.
     */
    import: async (sources: ImportSources) =>
      (await import('../store/import/import')).importHistory(
        { store, analyse: (r) => analysis.run(r), inflightResponseIds: parts.inflightResponseIds, onAdded: parts.onImported },
        sources,
      ),
  };
}

export type HistoryOps = ReturnType<typeof historyOps>;
export type HistoryOp = keyof HistoryOps;
