import { createPinia, setActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useExchangesStore, MAX_IN_MEMORY } from '../../../extension/stores/exchanges';
import { useFiltersStore } from '../../../extension/stores/filters';
import { useSettingsStore } from '../../../extension/stores/settings';
import { startTestCompanion, type TestCompanion } from '../../support/companion';
import { fakeSummary } from '../../support/extension-factories';
import { recordOf } from '../../support/records';

describe('the exchanges store', () => {
  let c: TestCompanion;
  const stored: string[] = [];

  beforeAll(async () => {
    c = await startTestCompanion();
    for (let i = 0; i < 5; i++) {
      const r = await recordOf('a-plain-text-1.json', { id: `0a${i}`, startedAt: Date.UTC(2026, 10, 29, 12, 0, i) });
      await c.store.append(r);
      stored.push(r.id);
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
    expect(ex.all.map((s) => s.id)).toEqual([...stored].reverse());
    expect(ex.hasOlder).toBe(false);
  });

  it('filters what it shows by status, kind, agent and text without touching what it holds', () => {
    const ex = useExchangesStore();
    const main = fakeSummary({ preview: 'the command printed hi' });
    const sub = fakeSummary({ agent: { role: 'subagent', name: '/root/greeter', nickname: 'Ada' }, status: 'failed' });
    const prewarm = fakeSummary({ requestKind: 'prewarm' });
    ex.applySnapshot([prewarm, sub, main], { keepInFlight: false });
    const f = useFiltersStore();
    f.setAgent('subagent');
    expect(ex.visible.map((s) => s.id)).toEqual([sub.id]);
    f.reset();
    f.setKind('prewarm');
    expect(ex.visible.map((s) => s.id)).toEqual([prewarm.id]);
    f.reset();
    f.setText('PRINTED HI');
    expect(ex.visible.map((s) => s.id)).toEqual([main.id]);
    f.reset();
    f.setStatus('failed');
    expect(ex.visible.map((s) => s.id)).toEqual([sub.id]);
    expect(ex.count).toBe(3);
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
