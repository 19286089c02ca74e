/**
 * @module Runs the analysis stage on each finished exchange before it is stored: finds the
 * previous exchange of its chain (kept in memory, else read back from the store), prices it with
 * the built-in table plus the user's overrides, and learns context windows from `/models`
 * replies. A failing analysis is reported and the record is stored without it.
 */
import fs from 'node:fs';
import { BUILTIN_PRICES, cacheBrief, contextWindowsFromModels, mergePriceOverrides, previousInChain } from '../analysis';
import { describeError, type Logger } from '../lib/log';
import type { PriceTable } from '../protocol/analysis';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { paths } from '../store/layout';
import type { Store } from '../store/store';
import { AnalysisPool } from './analysis-pool';

const KEEP_RECORDS = 32;

export interface PriceState {
  table: PriceTable;
  /** Problems in the user's override file (then the built-in table is used alone). */
  errors: string[];
}

/** The built-in prices merged with `<home>/prices.json`, if present. */
function loadPrices(home: string): PriceState {
  const file = paths(home).prices;
  if (!fs.existsSync(file)) return { table: BUILTIN_PRICES, errors: [] };
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    return { table: BUILTIN_PRICES, errors: [`${file}: not JSON (${describeError(err)})`] };
  }
  const merged = mergePriceOverrides(BUILTIN_PRICES, json);
  return { table: merged.table, errors: merged.errors.map((e) => `${file}: ${e}`) };
}

/**
 * What the analysis reads of a record: everything but the raw event log and non-streamed body,
 * which can be megabytes, and the record's own analysis (a previous exchange carries one); the
 * analysis reads none of them, so they would only be copied to the worker and kept for nothing.
 */
function forAnalysis<T extends ExchangeRecord | null>(r: T): T {
  return (r ? { ...r, analysis: undefined, response: { ...r.response, events: [], body: undefined } } : r) as T;
}

export class AnalysisStep {
  /** The last records analysed, as the analysis reads them, to serve as the next one's previous. */
  private readonly recent = new Map<string, ExchangeRecord>();
  private readonly windows = new Map<string, number>();
  private readonly pool: AnalysisPool;
  readonly prices: PriceState;
  failures = 0;
  lastFailure: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    home: string,
    private readonly configuredWindows: Record<string, number> = {},
  ) {
    this.prices = loadPrices(home);
    for (const e of this.prices.errors) log.warn(`prices: ${e}; using the built-in table`);
    this.pool = new AnalysisPool(log);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async previous(record: ExchangeRecord): Promise<ExchangeRecord | null> {
    if (!record.threadId) return null;
    const candidates = this.store.list({ thread: record.threadId, limit: 20 }).items;
    const prev = previousInChain(candidates, record);
    if (!prev) return null;
    return this.recent.get(prev.id) ?? (await this.store.get(prev.id));
  }

  /**
   * Analyses a stored record and stores the result beside it; returns the summary fields it
   * changed (cache brief, cost, facts), or null for exchanges without analysis or on failure.
   */
  async run(record: ExchangeRecord): Promise<Partial<ExchangeSummary> | null> {
    if (record.kind === 'other') {
      if (/\/models$/.test(record.path) && record.response.body)
        for (const [m, w] of contextWindowsFromModels(record.response.body)) this.windows.set(m, w);
      return null;
    }
    let patch: Partial<ExchangeSummary> | null = null;
    try {
      const reply = await this.pool.run({
        record: forAnalysis(record),
        previous: forAnalysis(await this.previous(record)),
        prices: this.prices.table,
        windows: Object.fromEntries(this.windows),
        configuredWindows: this.configuredWindows,
      });
      if (!reply.ok) throw new Error(reply.error);
      const analysis = reply.analysis;
      patch = { cache: cacheBrief(analysis), costUsd: analysis.costUsd, facts: analysis.facts };
      Object.assign(record, patch, { analysis });
      await this.store.attachAnalysis(record.id, analysis, patch);
    } catch (err) {
      this.failures++;
      this.lastFailure = `analysis of ${record.id} failed: ${describeError(err)}`;
      this.log.error(this.lastFailure);
    }
    this.recent.set(record.id, forAnalysis(record));
    if (this.recent.size > KEEP_RECORDS) this.recent.delete(this.recent.keys().next().value as string);
    return patch;
  }
}
