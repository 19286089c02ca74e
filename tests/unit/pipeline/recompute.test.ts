import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { FromWorker } from '../../../companion/capture/messages';
import { createLogger } from '../../../companion/lib/log';
import { AnalysisEngine, storeReads } from '../../../companion/pipeline/analysis';
import { Recompute } from '../../../companion/pipeline/recompute';
import type { LiveUsage } from '../../../companion/protocol/live';
import { ANALYSIS_VERSION } from '../../../companion/protocol/analysis';
import { Store } from '../../../companion/store/store';
import { tempHomes } from '../../support/companion';
import { analyseAll, loadFixture, recordFrom } from '../../support/records';
import { storesClosedAfterEach } from '../../support/stores';

const log = createLogger('silent');
const homes = tempHomes('codex-devtools-recompute-');
const closeAfter = storesClosedAfterEach();

// More than the 20 latest summaries of a thread that live analysis reads: a recompute must look before each exchange.
const N = 25;
const USAGE = { marker: 'live usage' } as unknown as LiveUsage;

/** A store of N analysed exchanges of one thread, analysed by an older release, and the worker's parts around it. */
async function setUp(opts: { prices?: unknown; withoutCodes?: boolean } = {}) {
  const home = homes();
  const store = closeAfter(Store.open({ home, log }));
  const records = [];
  for (let i = 0; i < N; i++)
    records.push(
      await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: `x-${String(i).padStart(3, '0')}`, startedAt: 1_000 + i }),
    );
  // As capture stores them: the summary carries the analysis's cache brief, cost and facts.
  for (const r of analyseAll(records)) {
    const old = { ...r.analysis!, version: ANALYSIS_VERSION - 1 };
    // As a release before coded sentences stored them: the English only.
    const stored = opts.withoutCodes
      ? {
          ...r,
          cache: { ...r.cache!, whyCode: null },
          analysis: { ...old, cache: { ...old.cache, whyCode: null }, pricing: { ...old.pricing!, noteCode: null } },
        }
      : { ...r, analysis: old };
    await store.append({ ...stored, facts: r.analysis!.facts });
  }
  if (opts.prices) fs.writeFileSync(path.join(home, 'prices.json'), JSON.stringify(opts.prices));
  const analysis = await AnalysisEngine.open(storeReads(store), log, home);
  const posted: FromWorker[] = [];
  const recompute = new Recompute({ store, analysis, post: (m) => posted.push(m), liveUsage: () => USAGE, log, stopped: () => false });
  return { store, analysis, posted, recompute, outdated: () => store.outdatedAnalyses(analysis.versions(), null, 1000).length };
}

describe('the background recompute', () => {
  it('gives analyses stored before coded sentences their codes, and announces the summaries that gained one', async () => {
    const s = await setUp({ withoutCodes: true });
    expect((await s.store.get('x-004'))!.analysis!.cache.whyCode).toBeNull();
    s.recompute.schedule();
    await s.recompute.settled();
    const r = (await s.store.get('x-004'))!;
    expect(r.analysis!.cache.whyCode).toMatchObject({ code: expect.stringMatching(/^cacheWhy\./) });
    expect(r.analysis!.pricing!.noteCode).toMatchObject({ code: expect.stringMatching(/^pricing\./) });
    expect(s.store.summary('x-004')!.cache!.whyCode).toEqual(r.analysis!.cache.whyCode);
    const announced = s.posted.flatMap((m) => (m.t === 'updated' ? m.summaries : []));
    expect(announced.find((x) => x.id === 'x-004')?.cache?.whyCode).toEqual(r.analysis!.cache.whyCode);
  });

  it('gives the event loop back between exchanges, so capture work waiting meanwhile runs before the pass ends', async () => {
    const s = await setUp();
    expect(s.outdated()).toBe(N);
    s.recompute.schedule();
    // What a capture message arriving now would see when its turn comes.
    const seenMidPass = await new Promise<number>((resolve) => setImmediate(() => resolve(s.outdated())));
    expect(seenMidPass).toBeGreaterThan(0);
    await s.recompute.settled();
    expect(s.outdated()).toBe(0);
  });

  it('announces each summary the new prices changed, then the usage once', async () => {
    const rates = { inputPer1M: 1, cachedInputPer1M: 1, cacheWritePer1M: 1, outputPer1M: 1 };
    const s = await setUp({ prices: { rows: [{ model: 'gpt-5-codex', tier: 'default', rates, source: 'mine', asOf: '2026-12-01' }] } });
    s.recompute.schedule();
    await s.recompute.settled();
    const updates = s.posted.filter((m) => m.t === 'updated');
    const announced = updates.flatMap((m) => m.summaries);
    expect(announced.map((x) => x.id).sort()).toEqual(Array.from({ length: N }, (_, i) => `x-${String(i).padStart(3, '0')}`));
    for (const x of announced) expect(x.costUsd).toBe(s.store.summary(x.id)!.costUsd);
    expect(updates.filter((m) => m.usage !== null)).toEqual([{ t: 'updated', summaries: [], usage: USAGE }]);
    expect(updates.at(-1)!.usage).toBe(USAGE);
  });

  it('says nothing when a recompute gives the same figures, each exchange read against its own previous one however long the thread', async () => {
    const s = await setUp();
    const before = s.store.summary('x-003');
    s.recompute.schedule();
    await s.recompute.settled();
    expect(s.outdated()).toBe(0);
    expect(s.store.summary('x-003')).toEqual(before);
    expect(s.posted).toEqual([]);
  });

  it('leaves alone exchanges whose analysis is of the versions in force', async () => {
    const s = await setUp();
    s.recompute.schedule();
    await s.recompute.settled();
    const rerun = vi.spyOn(s.analysis, 'rerun');
    s.recompute.schedule();
    await s.recompute.settled();
    expect(rerun).not.toHaveBeenCalled();
  });
});
