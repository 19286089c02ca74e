// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeSummary, SessionRowWire } from '../../../companion/protocol';
import FilterBar from '../../../extension/components/panel/FilterBar.vue';
import StatusBar from '../../../extension/components/panel/StatusBar.vue';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useFiltersStore } from '../../../extension/stores/filters';
import { useSettingsStore } from '../../../extension/stores/settings';
import { fakeRollup, fakeSummary } from '../../support/extension-factories';
import { stubCompanionApi } from '../../support/fake-api';

/** The companion's answers, by path; every URL the panel asked for. */
let answers: Record<string, (q: URLSearchParams) => unknown>;
let asked: URL[];
let pinia: Pinia;
const mounted: VueWrapper[] = [];

const page = (items: ExchangeSummary[], matched: number, stored: number) => ({
  items,
  nextBefore: null,
  nextCursor: null,
  matched,
  stored,
});
function sessionRow(id: string, title: string): SessionRowWire {
  return {
    ...fakeRollup({ costUsd: 0.01 }),
    cacheMisses: 0,
    missCostUsd: 0,
    sessionId: id,
    title,
    cwd: `/work/${id}`,
    models: ['gpt-5-codex'],
    startedAt: Date.UTC(2026, 10, 29, 12),
    endedAt: Date.UTC(2026, 10, 29, 13),
    rows: 1,
  };
}

beforeEach(async () => {
  fakeBrowser.reset();
  answers = { '/api/exchanges': () => page([], 0, 3) };
  asked = stubCompanionApi((u) => answers[u.pathname]?.(u.searchParams));
  pinia = createPinia();
  setActivePinia(pinia);
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
  useExchangesStore().applySnapshot([fakeSummary()], { keepInFlight: false });
});
afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount();
  vi.unstubAllGlobals();
});

function show<T>(component: T): VueWrapper {
  const w = mount(component as never, { global: { plugins: [pinia] }, attachTo: document.body });
  mounted.push(w);
  return w;
}

describe('history search in the panel', () => {
  it('says how many stored exchanges there are, not how many it loaded', async () => {
    answers['/api/exchanges'] = () => page([], 0, 2039);
    const w = show(StatusBar);
    await vi.waitFor(() => expect(w.get('[data-testid="row-count"]').text()).toBe('2,039 of 2,039 stored'));
  });

  it('shows a search count the store capped as a lower bound, never as an exact figure', async () => {
    answers['/api/exchanges'] = (q) =>
      q.get('q') === 'kalo' ? { ...page([fakeSummary()], 1000, 100_000), matchedCapped: true } : page([], 0, 100_000);
    const w = show(StatusBar);
    await vi.waitFor(() => expect(w.get('[data-testid="row-count"]').text()).toBe('100,000 of 100,000 stored'));
    useFiltersStore().setText('kalo');
    await vi.waitFor(() => expect(w.get('[data-testid="row-count"]').text()).toBe('1,000+ of 100,000 stored'));
    // A live exchange that matches raises the bound; the count stays "at least".
    useExchangesStore().applySummary(fakeSummary({ preview: 'kalo again' }));
    await flushPromises();
    expect(w.get('[data-testid="row-count"]').text()).toBe('1,001+ of 100,001 stored');
  });

  it('counts a live exchange that does not match the query as new and not shown, and searches again on request', async () => {
    const failed = fakeSummary({ status: 'failed' });
    answers['/api/exchanges'] = (q) => (q.get('status') === 'failed' ? page([failed], 1, 3) : page([], 0, 3));
    const w = show(StatusBar);
    const ex = useExchangesStore();
    useFiltersStore().setStatus('failed');
    await vi.waitFor(() => expect(w.get('[data-testid="row-count"]').text()).toBe('1 of 3 stored'));
    ex.applySummary(fakeSummary({ status: 'completed' }));
    ex.applySummary(fakeSummary({ status: 'completed' }));
    const alsoFailed = fakeSummary({ status: 'failed' });
    ex.applySummary(alsoFailed);
    await flushPromises();
    expect(w.get('[data-testid="new-hidden"]').text()).toContain('2 new, not shown');
    expect(w.get('[data-testid="row-count"]').text()).toBe('2 of 6 stored');
    expect(ex.visible.map((s) => s.id)).toEqual([alsoFailed.id, failed.id]);
    const before = asked.length;
    await w.get('[data-testid="rerun-query"]').trigger('click');
    await vi.waitFor(() => expect(w.find('[data-testid="new-hidden"]').exists()).toBe(false));
    expect(asked.slice(before).map((a) => a.searchParams.get('status'))).toEqual(['failed']);
  });

  it('types into the search box a query for the store, once the user pauses', async () => {
    vi.useFakeTimers();
    const w = show(FilterBar);
    await w.get('[data-testid="search"]').setValue('exec_command');
    expect(useFiltersStore().query).toEqual({});
    vi.advanceTimersByTime(300);
    vi.useRealTimers();
    expect(useFiltersStore().query).toEqual({ q: 'exec_command' });
    await vi.waitFor(() =>
      expect(asked.some((a) => a.pathname === '/api/exchanges' && a.searchParams.get('q') === 'exec_command')).toBe(true),
    );
  });

  it('lists every stored session in the session menu, searches them on the companion, and filters by the one picked', async () => {
    const rows = [sessionRow('s-1', 'fix the login bug'), sessionRow('s-2', 'run echo hi'), sessionRow('s-3', 'write the docs')];
    answers['/api/sessions'] = (q) => {
      const hits = rows.filter((r) => !q.get('q') || r.title!.includes(q.get('q')!));
      return { items: hits, nextCursor: null, matched: hits.length, stored: rows.length };
    };
    const w = show(FilterBar);
    await w.get('[data-testid="filter-session"]').trigger('click');
    await vi.waitFor(() => expect(w.findAll('[data-testid="session-option"]')).toHaveLength(3));
    vi.useFakeTimers();
    await w.get('[data-testid="session-search"]').setValue('echo');
    vi.advanceTimersByTime(300);
    vi.useRealTimers();
    await vi.waitFor(() =>
      expect(w.findAll('[data-testid="session-option"]').map((o) => o.text())).toEqual([expect.stringContaining('run echo hi')]),
    );
    await w.get('[data-testid="session-option"]').trigger('click');
    expect(useFiltersStore().query).toEqual({ session: 's-2' });
    expect(w.get('[data-testid="filter-session"]').text()).toContain('run echo hi');
  });

  it('turns the cache-miss, cost and source chips into store filters', async () => {
    const w = show(FilterBar);
    await w.get('[data-testid="filter-miss"]').trigger('click');
    expect(useFiltersStore().query).toEqual({ miss: 1 });
    expect(w.get('[data-testid="filter-miss"]').attributes('aria-pressed')).toBe('true');
    await w.get('[data-testid="filter-cost"]').setValue('0.5');
    expect(useFiltersStore().query).toEqual({ miss: 1, minCost: 0.5 });
    await w.get('[data-testid="filter-source"]').setValue('rollout');
    expect(useFiltersStore().query).toEqual({ miss: 1, minCost: 0.5, source: 'rollout' });
    await vi.waitFor(() =>
      expect(asked.some((a) => a.searchParams.get('miss') === '1' && a.searchParams.get('source') === 'rollout')).toBe(true),
    );
  });

  it('shows in the search box the text of filters set elsewhere, and clears it on reset', async () => {
    vi.useFakeTimers();
    const w = show(FilterBar);
    await w.get('[data-testid="search"]').setValue('exec_command');
    vi.advanceTimersByTime(300);
    vi.useRealTimers();
    await w.vm.$nextTick();
    useFiltersStore().showByCost('s-1', true);
    await w.vm.$nextTick();
    expect((w.get('[data-testid="search"]').element as HTMLInputElement).value).toBe('');
  });
});
