import { createPinia, setActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useExchangesStore, MAX_IN_MEMORY } from '../../../extension/stores/exchanges';
import { useFiltersStore } from '../../../extension/stores/filters';
import { useSettingsStore } from '../../../extension/stores/settings';
import { startTestCompanion, type TestCompanion } from '../../support/companion';
import { fakeSummary } from '../../support/extension-factories';
import { analyseAll, loadFixture, recordFrom, recordOf, withUsage } from '../../support/records';

describe('the exchanges store', () => {
  let c: TestCompanion;
  const stored: string[] = [];
  /** An older exchange whose input holds an exec_command tool call; the costliest of them. */
  let toolCall: string;

  beforeAll(async () => {
    c = await startTestCompanion();
    const records = [];
    for (let i = 0; i < 5; i++)
      records.push(await recordOf('a-plain-text-1.json', { id: `0a${i}`, startedAt: Date.UTC(2026, 10, 29, 12, 0, i) }));
    const fx = withUsage(loadFixture('b-tool-call-2.json'), { input: 400_000, cached: 0, output: 2_000 });
    records.push(await recordFrom(fx, { id: '09', startedAt: Date.UTC(2026, 10, 29, 11, 0, 0) }));
    // Analysed as on capture, so each has its cost.
    for (const r of analyseAll(records)) {
      await c.store.append(r);
      if (r.id === '09') toolCall = r.id;
      else stored.push(r.id);
    }
  });
  afterAll(() => c.dispose());

  beforeEach(async () => {
    fakeBrowser.reset();
    setActivePinia(createPinia());
    await useSettingsStore().pair({ port: c.port, token: c.token() });
  });

  it('pages older exchanges in over REST behind the snapshot until the start of history', async () => {
    const ex = useExchangesStore();
    const newest = (await c.store.get(stored[4]))!;
    ex.applySnapshot([newest], { keepInFlight: false });
    expect(ex.hasOlder).toBeNull();
    await ex.loadOlder();
    expect(ex.all.map((s) => s.id)).toEqual([...stored].reverse().concat(toolCall));
    expect(ex.hasOlder).toBe(false);
  });

  it('asks the store for a search and finds an exchange that is not among the loaded rows', async () => {
    const ex = useExchangesStore();
    ex.applySnapshot([(await c.store.get(stored[4]))!], { keepInFlight: false });
    // exec_command is in the tool call of the oldest exchange's input: only the store's items know it.
    useFiltersStore().setText('exec_command');
    await vi.waitFor(() => expect(ex.results).not.toBeNull());
    expect(ex.visible.map((s) => s.id)).toEqual([toolCall]);
    expect([ex.matched, ex.stored]).toEqual([1, stored.length + 1]);
    expect(ex.all.map((s) => s.id)).toEqual([stored[4]]);
  });

  it('sorts on the companion: by cost, the most expensive first', async () => {
    const ex = useExchangesStore();
    ex.applySnapshot([], { keepInFlight: false });
    useFiltersStore().toggleSort('cost');
    await vi.waitFor(() => expect(ex.results).not.toBeNull());
    const costs = ex.visible.map((s) => s.costUsd ?? -1);
    expect(costs.length).toBe(stored.length + 1);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(ex.visible[0].id).toBe(toolCall);
  });

  it('goes back to the live list when the filters are reset', async () => {
    const ex = useExchangesStore();
    const newest = (await c.store.get(stored[4]))!;
    ex.applySnapshot([newest], { keepInFlight: false });
    const f = useFiltersStore();
    f.setStatus('failed');
    await vi.waitFor(() => expect(ex.results).not.toBeNull());
    expect(ex.visible).toEqual([]);
    f.reset();
    await vi.waitFor(() => expect(ex.results).toBeNull());
    expect(ex.visible.map((s) => s.id)).toEqual([newest.id]);
  });

  it('places a live exchange that matches the sort where the sort puts it, and only counts one that does not match', async () => {
    const ex = useExchangesStore();
    ex.applySnapshot([], { keepInFlight: false });
    const f = useFiltersStore();
    f.setMinCost(0);
    f.toggleSort('cost');
    await vi.waitFor(() => expect(ex.results).not.toBeNull());
    const [top, second] = ex.visible;
    const between = fakeSummary({ costUsd: ((top.costUsd ?? 0) + (second.costUsd ?? 0)) / 2 });
    const unpriced = fakeSummary({ costUsd: null });
    ex.applySummary(between);
    ex.applySummary(unpriced);
    expect(ex.visible.map((s) => s.id).slice(0, 3)).toEqual([top.id, between.id, second.id]);
    expect(ex.visible.some((s) => s.id === unpriced.id)).toBe(false);
    expect([ex.matched, ex.stored, ex.newShown, ex.newHidden]).toEqual([stored.length + 2, stored.length + 3, 1, 1]);
  });

  it('lets the oldest leave memory beyond its cap and counts them', () => {
    const ex = useExchangesStore();
    ex.applySnapshot([], { keepInFlight: false });
    const first = fakeSummary();
    ex.applySummary(first);
    for (let i = 0; i < MAX_IN_MEMORY; i++) ex.applySummary(fakeSummary());
    expect(ex.count).toBeLessThanOrEqual(MAX_IN_MEMORY);
    expect(ex.evicted).toBeGreaterThan(0);
    expect(ex.get(first.id)).toBeUndefined();
  });

  it('keeps exchanges still streaming on the same socket when a resync snapshot does not carry them', () => {
    const ex = useExchangesStore();
    const streaming = fakeSummary({ status: 'streaming', usage: null, endedAt: null });
    ex.applySnapshot([], { keepInFlight: false });
    ex.applySummary(streaming);
    ex.applySnapshot([], { keepInFlight: true });
    expect(ex.get(streaming.id)?.status).toBe('streaming');
    ex.applySnapshot([], { keepInFlight: false });
    expect(ex.get(streaming.id)).toBeUndefined();
  });
});
