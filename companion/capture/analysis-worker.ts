/**
 * @module The analysis worker thread: runs the (pure, CPU-heavy) analysis stage away from the
 * event loop that forwards Codex's traffic. One message in, one analysis (or error) out.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeExchange, contextWindowLookup } from '../analysis';
import type { ExchangeAnalysis, PriceTable } from '../protocol/analysis';
import type { ExchangeRecord } from '../protocol/exchange';

export interface AnalysisJob {
  id: number;
  record: ExchangeRecord;
  previous: ExchangeRecord | null;
  prices: PriceTable;
  windows: Record<string, number>;
  configuredWindows: Record<string, number>;
}

export type AnalysisReply = { id: number; ok: true; analysis: ExchangeAnalysis } | { id: number; ok: false; error: string };

/** The job's analysis; shared by the worker and the in-thread fallback. */
export function runJob(job: AnalysisJob): AnalysisReply {
  try {
    const contextWindow = contextWindowLookup({ models: new Map(Object.entries(job.windows)), configured: job.configuredWindows });
    return { id: job.id, ok: true, analysis: analyzeExchange(job.record, job.previous, { prices: job.prices, contextWindow }) };
  } catch (err) {
    return { id: job.id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

parentPort?.on('message', (job: AnalysisJob) => parentPort!.postMessage(runJob(job)));
