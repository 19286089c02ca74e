/**
 * @module The analysis addon's engine, in the capture worker: analyses each finished exchange
 * right after it was handed over for storage. Finds the previous exchange of its chain (kept
 * here, else read back from the store through the main thread), prices it with the built-in
 * table plus the user's overrides, and learns context windows from `/models` replies. A failing
 * analysis is reported and the record stays stored without it.
 */
import { analyzeExchange, cacheBrief, contextWindowLookup, contextWindowsFromModels, previousInChain } from '../analysis';
import { describeError, type Logger } from '../lib/log';
import type { ExchangeAnalysis } from '../protocol/analysis';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { loadPrices, type PriceState } from '../store/prices-file';
import type { Store } from '../store/store';

/** Threads whose latest exchange is kept for the next one's analysis. */
const KEEP_THREADS = 16;

/**
 * What the analysis reads of a record: everything but the raw event log and non-streamed body,
 * which can be megabytes, and the record's own analysis; the analysis reads none of them, so
 * keeping them would only hold memory for nothing.
 */
function forAnalysis<T extends ExchangeRecord | null>(r: T): T {
  return (r ? { ...r, analysis: undefined, response: { ...r.response, events: [], body: undefined } } : r) as T;
}

/** What the analysis asks of the store. */
export interface StoreReads {
  /** The latest exchanges of a thread that started before `until` (epoch ms, exclusive). */
  threadSummaries(threadId: string, until: number): Promise<ExchangeSummary[]>;
  record(id: string): Promise<ExchangeRecord | null>;
}

/**
 * The reads over a store. Bounded by the record's start: an imported record can be older than
 * the thread's latest exchanges, and its previous is the latest one before it, not the latest.
 */
export function storeReads(store: Pick<Store, 'list' | 'get'>): StoreReads {
  return {
    threadSummaries: async (threadId, until) => store.list({ thread: threadId, until, limit: 20 }).items,
    record: (id) => store.get(id),
  };
}

export class AnalysisEngine {
  /** The latest record analysed per thread, as the analysis reads it: the next one's previous. */
  private readonly latest = new Map<string, ExchangeRecord>();
  private readonly windows = new Map<string, number>();
  readonly prices: PriceState;
  failures = 0;
  lastFailure: string | null = null;

  constructor(
    private readonly store: StoreReads,
    private readonly log: Logger,
    home: string,
    private readonly configuredWindows: Record<string, number> = {},
  ) {
    this.prices = loadPrices(home);
    for (const e of this.prices.errors) log.warn(`prices: ${e}; using the built-in table`);
  }

  private async previous(record: ExchangeRecord): Promise<ExchangeRecord | null> {
    if (!record.threadId) return null;
    const kept = this.latest.get(record.threadId);
    // `until` is exclusive; a previous that started in the same millisecond is ordered by id.
    const candidates = await this.store.threadSummaries(record.threadId, record.startedAt + 1);
    const prev = previousInChain(candidates, record);
    if (!prev) return null;
    return kept?.id === prev.id ? kept : forAnalysis(await this.store.record(prev.id));
  }

  /**
   * Analyses a record; returns the analysis and the summary fields it changes (cache brief,
   * cost, facts), or null for exchanges without analysis or on failure.
   */
  async run(record: ExchangeRecord): Promise<{ analysis: ExchangeAnalysis; patch: Partial<ExchangeSummary> } | null> {
    if (record.kind === 'other') {
      if (/\/models$/.test(record.path) && record.response.body)
        for (const [m, w] of contextWindowsFromModels(record.response.body)) this.windows.set(m, w);
      return null;
    }
    let out: { analysis: ExchangeAnalysis; patch: Partial<ExchangeSummary> } | null = null;
    const lite = forAnalysis(record);
    try {
      const contextWindow = contextWindowLookup({ models: this.windows, configured: this.configuredWindows });
      const analysis = analyzeExchange(lite, await this.previous(record), { prices: this.prices.table, contextWindow });
      out = { analysis, patch: { cache: cacheBrief(analysis), costUsd: analysis.costUsd, facts: analysis.facts } };
    } catch (err) {
      this.failures++;
      this.lastFailure = `analysis of ${record.id} failed: ${describeError(err)}`;
      this.log.error(this.lastFailure);
    }
    if (record.threadId) {
      this.latest.delete(record.threadId); // re-insert: Map order is the eviction order
      this.latest.set(record.threadId, out ? { ...lite, ...out.patch } : lite);
      if (this.latest.size > KEEP_THREADS) this.latest.delete(this.latest.keys().next().value as string);
    }
    return out;
  }
}
