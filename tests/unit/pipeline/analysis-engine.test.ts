import { describe, expect, it } from 'vitest';
import { analyzeExchange } from '../../../companion/analysis';
import { createLogger } from '../../../companion/lib/log';
import { AnalysisEngine, KEEP_MAX_REQUEST_BYTES, storeReads, type StoreReads } from '../../../companion/pipeline/analysis';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { summaryOf } from '../../../companion/store/codec';
import { Store } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { runRecords } from '../../support/records';

const homes = tempHomes('codex-devtools-analysis-engine-');

/** Store reads over the records given, counting the full records read back. */
function reads(records: ExchangeRecord[]): StoreReads & { fullReads: string[] } {
  const fullReads: string[] = [];
  return {
    fullReads,
    chainSummaries: async (of, until) =>
      records
        .filter((r) => r.threadId === of.threadId && r.startedAt < until)
        .sort((a, b) => b.startedAt - a.startedAt)
        .map((r) => summaryOf(r)),
    record: async (id) => {
      fullReads.push(id);
      return records.find((r) => r.id === id) ?? null;
    },
  };
}

/** The second step of a two-step Codex run, analysed after the first as live capture does. */
async function analyseSecond(firstRequestBytes: number) {
  const [first, second] = await runRecords('b-tool-call', ['b-tool-call-1.json', 'b-tool-call-2.json']);
  expect(first.threadId).not.toBeNull();
  expect(second.threadId).toBe(first.threadId);
  const stored = [{ ...first, request: { ...first.request, bodyBytes: firstRequestBytes } }, second];
  const store = reads(stored);
  const engine = await AnalysisEngine.open(store, createLogger('silent'), homes());
  await engine.run(stored[0]);
  const out = await engine.run(second);
  return { out, fullReads: store.fullReads, firstId: first.id };
}

describe('the analysis engine keeps the latest exchange of a thread only when it is small', () => {
  it('analyses the next exchange against the kept one without reading the store', async () => {
    const { out, fullReads, firstId } = await analyseSecond(KEEP_MAX_REQUEST_BYTES);
    expect(out?.analysis.cache.previousId).toBe(firstId);
    expect(out?.analysis.diff).not.toBeNull();
    expect(fullReads).toEqual([]);
  });

  it('reads a large previous request back from the store, with the same analysis as when it was kept', async () => {
    const kept = await analyseSecond(KEEP_MAX_REQUEST_BYTES);
    const large = await analyseSecond(KEEP_MAX_REQUEST_BYTES + 1);
    expect(large.fullReads).toEqual([large.firstId]);
    expect(large.out?.analysis).toEqual(kept.out?.analysis);
  });
});

describe('the analysis engine and an exchange whose request was not captured', () => {
  it('reads only the previous exchange’s summary, and judges the cache as the full record would', async () => {
    const [first, second] = await runRecords('b-tool-call', ['b-tool-call-1.json', 'b-tool-call-2.json']);
    // The first is not kept (large), the second lost its request to a full capture queue.
    const stored = [{ ...first, request: { ...first.request, bodyBytes: KEEP_MAX_REQUEST_BYTES + 1 } }];
    const lost: ExchangeRecord = { ...second, request: { ...second.request, body: null }, captureComplete: false };
    const store = reads([...stored, lost]);
    const engine = await AnalysisEngine.open(store, createLogger('silent'), homes());
    await engine.run(stored[0]);
    const out = await engine.run(lost);
    expect(store.fullReads).toEqual([]);
    expect(out?.analysis.diff).toBeNull();
    expect(out?.analysis.cache.previousId).toBe(first.id);
    // The same verdict, figures and reasons as against the whole previous record.
    expect(out?.analysis.cache).toEqual(analyzeExchange(lost, stored[0]).cache);
    expect(out?.analysis.cache.idleMs).not.toBeNull();
  });
});

describe('the analysis engine over the store', () => {
  it('finds the previous exchange of a chain behind more than a page of later thread exchanges that cannot be one', async () => {
    const [first, second] = await runRecords('b-tool-call', ['b-tool-call-1.json', 'b-tool-call-2.json']);
    const store = Store.open({ home: homes(), log: createLogger('silent') });
    try {
      await store.append(first);
      // 25 exchanges of the same thread between the two, none a previous: no usage, another
      // session, or not a model exchange.
      const between = Array.from({ length: 25 }, (_, i): ExchangeRecord => {
        const at = first.startedAt + 1 + i;
        const r = { ...first, id: `${first.id}-between-${String(i).padStart(2, '0')}`, startedAt: at, endedAt: at };
        if (i % 3 === 0) return { ...r, usage: null, status: 'failed' };
        if (i % 3 === 1) return { ...r, sessionId: 'another-session' };
        return { ...r, kind: 'other' };
      });
      await store.appendMany(between);
      expect(second.startedAt).toBeGreaterThan(between[between.length - 1].startedAt);
      const engine = await AnalysisEngine.open(storeReads(store), createLogger('silent'), homes());
      const out = await engine.rerun(second);
      expect(out?.analysis.cache.previousId).toBe(first.id);
      expect(out?.analysis.diff).not.toBeNull();
    } finally {
      store.close();
    }
  });
});
