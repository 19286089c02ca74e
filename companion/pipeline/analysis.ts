/**
 * @module The analysis addon's engine, in the capture worker: analyses each finished exchange
 * right after it was handed over for storage, and stored ones again when the analysis or the
 * price table changed (pipeline/recompute.ts). Finds the previous exchange of its chain (kept
 * here, else read back from the store), prices it with the built-in table plus the user's
 * overrides, and learns context windows from `/models` replies. A failing analysis is reported
 * and the record stays stored without it.
 */
import { analyzeExchange, cacheBrief, contextWindowLookup, contextWindowsFromModels, hasRequestBody, previousInChain } from '../analysis';
import { describeError, type Logger } from '../lib/log';
import type { ExchangeAnalysis } from '../protocol/analysis';
import { ANALYSIS_VERSION } from '../protocol/version';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { loadPrices, reloadPrices, type PriceState } from '../store/prices-file';
import type { Store } from '../store/store';

/** Threads whose latest exchange is kept for the next one's analysis. */
const KEEP_THREADS = 16;
/**
 * A latest exchange whose request was larger than this as sent is not kept: the next exchange
 * reads it back from the store, which holds each input item once. Keeping a long session's
 * megabytes here would hold them a second time for the whole session (16 threads of 30 MB bodies
 * would be half a gigabyte); compressed bodies decode to several times this, hence the margin.
 */
export const KEEP_MAX_REQUEST_BYTES = 256 * 1024;

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
  /**
   * The latest exchanges that may be `of`'s previous (`isSameChain`: model exchanges of its session
   * and thread with usage) and started before `until` (epoch ms, exclusive).
   */
  chainSummaries(of: ExchangeSummary, until: number): Promise<ExchangeSummary[]>;
  /** A stored record; input items `alongside` also carries are taken from it, not read back. */
  record(id: string, alongside?: ExchangeRecord): Promise<ExchangeRecord | null>;
}

/**
 * The reads over a store. Bounded by the record's start: an imported record can be older than
 * the thread's latest exchanges, and its previous is the latest one before it, not the latest.
 */
export function storeReads(store: Pick<Store, 'chainCandidates' | 'get'>): StoreReads {
  return {
    // Filtered in SQL: reading a thread's latest 20 summaries whatever they were (and parsing
    // each) was a tenth of the worker's time per exchange. Newest first by id, which follows the
    // start; a few more than one in case two share a millisecond.
    chainSummaries: async (of, until) => (of.threadId === null ? [] : store.chainCandidates(of.threadId, of.sessionId, until, 4)),
    record: (id, alongside) => store.get(id, alongside),
  };
}

/** What a stored analysis was computed with; another pair means it is out of date. */
export interface AnalysisVersions {
  analysis: number;
  prices: string;
}

type Analysed = { analysis: ExchangeAnalysis; patch: Partial<ExchangeSummary> };

export class AnalysisEngine {
  /** The latest record analysed per thread, as the analysis reads it: the next one's previous. */
  private readonly latest = new Map<string, ExchangeRecord>();
  private readonly windows = new Map<string, number>();
  prices: PriceState;
  failures = 0;
  lastFailure: string | null = null;

  /** An engine with the prices in force (`<home>/prices.json` read and checked). */
  static async open(store: StoreReads, log: Logger, home: string, configuredWindows: Record<string, number> = {}): Promise<AnalysisEngine> {
    return new AnalysisEngine(store, log, home, configuredWindows, await loadPrices(home));
  }

  private constructor(
    private readonly store: StoreReads,
    private readonly log: Logger,
    private readonly home: string,
    private readonly configuredWindows: Record<string, number>,
    prices: PriceState,
  ) {
    this.prices = prices;
    for (const e of this.prices.errors) log.warn(`prices: ${e}; using the built-in table`);
  }

  /** The versions an analysis made now carries. */
  versions(): AnalysisVersions {
    return { analysis: ANALYSIS_VERSION, prices: this.prices.version };
  }

  /**
   * Reads `<home>/prices.json` again (it changed); true when the table in force changed. A broken
   * edit keeps the table in force and reports its errors, as at start-up.
   */
  async reloadPrices(): Promise<boolean> {
    const before = this.prices;
    this.prices = await reloadPrices(this.home, before);
    for (const e of this.prices.errors) this.log.warn(`prices: ${e}; keeping the prices in force`);
    if (this.prices.version === before.version) return false;
    this.log.info(`prices: ${this.home}/prices.json changed; stored exchanges are repriced in the background`);
    return true;
  }

  /** The previous exchange of the record's chain; `stored` reads it from the store alone (the kept one is the thread's latest). */
  private async previous(record: ExchangeRecord, stored: boolean): Promise<ExchangeRecord | ExchangeSummary | null> {
    if (!record.threadId || record.sessionId === null) return null;
    const kept = stored ? undefined : this.latest.get(record.threadId);
    // `until` is exclusive; a previous that started in the same millisecond is ordered by id.
    const candidates = await this.store.chainSummaries(record, record.startedAt + 1);
    const prev = previousInChain(candidates, record);
    if (!prev) return null;
    // A request lost to a full capture queue has nothing to compare: its summary is all the
    // analysis reads of the previous exchange. Reading a long session's items back anyway (some
    // 1,400, each inflated and parsed) set capture further back exactly when it was behind.
    if (!hasRequestBody(record)) return prev;
    // Codex resent the previous request's items in this one: a long session's megabytes are not read back.
    return kept?.id === prev.id ? kept : forAnalysis(await this.store.record(prev.id, record));
  }

  /**
   * Analyses a record; returns the analysis and the summary fields it changes (cache brief,
   * cost, facts), or null for exchanges without analysis or on failure.
   */
  async run(record: ExchangeRecord): Promise<Analysed | null> {
    if (record.kind === 'other') {
      if (/\/models$/.test(record.path) && record.response.body)
        for (const [m, w] of contextWindowsFromModels(record.response.body)) this.windows.set(m, w);
      return null;
    }
    const lite = forAnalysis(record);
    const out = await this.analyse(lite, false);
    if (record.threadId) {
      this.latest.delete(record.threadId); // re-insert: Map order is the eviction order
      if (record.request.bodyBytes <= KEEP_MAX_REQUEST_BYTES) this.latest.set(record.threadId, out ? { ...lite, ...out.patch } : lite);
      if (this.latest.size > KEEP_THREADS) this.latest.delete(this.latest.keys().next().value as string);
    }
    return out;
  }

  /**
   * Analyses a stored record again, against the previous exchange of its chain as stored (not
   * the thread's latest): what `run` gave it, with today's analysis and prices.
   */
  async rerun(record: ExchangeRecord): Promise<Analysed | null> {
    if (record.kind === 'other') return null;
    // Windows learned from `/models` live in memory: one known when it was analysed stays known.
    return this.analyse(forAnalysis(record), true, record.analysis?.context?.contextWindow ?? null);
  }

  private async analyse(lite: ExchangeRecord, stored: boolean, knownWindow: number | null = null): Promise<Analysed | null> {
    try {
      const lookup = contextWindowLookup({ models: this.windows, configured: this.configuredWindows });
      const contextWindow = (model: string) => lookup(model) ?? knownWindow;
      const prices = this.prices;
      const previous = await this.previous(lite, stored);
      const analysis = analyzeExchange(lite, previous, { prices: prices.table, pricesVersion: prices.version, contextWindow });
      return { analysis, patch: { cache: cacheBrief(analysis), costUsd: analysis.costUsd, facts: analysis.facts } };
    } catch (err) {
      this.failures++;
      this.lastFailure = `analysis of ${lite.id} failed: ${describeError(err)}`;
      this.log.error(this.lastFailure);
      return null;
    }
  }
}
