/**
 * @module The store addon, in the capture worker: writes an exchange's row when it starts (with
 * its request) and its events as they arrive (batched, on disk within the store's flush window),
 * so a companion killed mid-stream leaves an `aborted` exchange with what was captured; then
 * stores the finished record, tells the main thread, analyses it and stores the analysis.
 * Durable first: the capture is stored before the (slower, recomputable) analysis runs.
 */
import type { CaptureAddon } from '../capture/addons';
import type { ExchangeFlow } from '../capture/flow';
import type { FromWorker } from '../capture/messages';
import type { LiveUsage } from '../protocol/live';
import { summaryOf } from '../store/codec';
import type { Store } from '../store/store';
import type { AnalysisEngine } from './analysis';

export interface StoreAddonParts {
  store: Store;
  post(m: FromWorker): void;
  analysis: AnalysisEngine;
  stats(): void;
  liveUsage(): LiveUsage;
}

export function storeAddon(p: StoreAddonParts): CaptureAddon {
  const finish = async (flow: ExchangeFlow) => {
    const record = flow.toRecord();
    await p.store.append(record);
    // WebSocket readings reached the live state as they arrived (the runtime's rateLimits message).
    p.post({ t: 'stored', summary: summaryOf(record), rateLimits: record.transport === 'http' ? record.rateLimits : null });
    const out = await p.analysis.run(record);
    if (out) await p.store.attachAnalysis(record.id, out.analysis, out.patch);
    p.post({
      t: 'analysed',
      id: record.id,
      kind: record.kind,
      summary: p.store.summary(record.id),
      usage: record.kind === 'model' ? p.liveUsage() : null,
    });
    p.stats();
  };
  return {
    name: 'store',
    request: (flow) => p.store.begin(flow.toSummary(), flow.toRecord().request),
    event: (flow, ev) => p.store.appendEvents(flow.id, [ev]),
    response: finish,
    error: finish,
  };
}
