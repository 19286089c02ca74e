/**
 * @module The store addon, in the capture worker: hands each finished record to the main thread
 * to be made durable (the store lives there until it moves into this worker), then analyses it
 * and hands the analysis over. Durable first: the capture is stored before the (slower,
 * recomputable) analysis runs.
 */
import type { CaptureAddon } from '../capture/addons';
import type { ExchangeFlow } from '../capture/flow';
import type { FromWorker } from '../capture/messages';
import type { AnalysisEngine } from './analysis';

export function storeAddon(post: (m: FromWorker) => void, analysis: AnalysisEngine, stats: () => void): CaptureAddon {
  const finish = async (flow: ExchangeFlow) => {
    const record = flow.toRecord();
    post({ t: 'record', record });
    const out = await analysis.run(record);
    post({ t: 'analysed', id: record.id, kind: record.kind, analysis: out?.analysis ?? null, patch: out?.patch ?? null });
    stats();
  };
  return { name: 'store', response: finish, error: finish };
}
