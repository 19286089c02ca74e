/**
 * @module The store addon, in the capture worker: writes an exchange's row when it starts (with
 * its request) and its events as they arrive (both batched, on disk within the store's flush window),
 * so a companion killed mid-stream leaves an `aborted` exchange with what was captured; then
 * analyses the finished record and stores both in one transaction, and tells the main thread.
 * One write, not two: an analysis takes about a millisecond, while a second transaction
 * rewrote the row, its indexes and roll-ups (`npm run bench`). A failed analysis stores the
 * record without one; it is tried again when the companion next starts (pipeline/recompute.ts).
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
    const captured = flow.toRecord();
    const out = await p.analysis.run(captured);
    const record = out ? { ...captured, ...out.patch, analysis: out.analysis } : captured;
    await p.store.append(record);
    // WebSocket readings reached the live state as they arrived (the runtime's rateLimits message).
    p.post({ t: 'stored', summary: summaryOf(record), rateLimits: record.transport === 'http' ? record.rateLimits : null });
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
