// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExchangeList from '../../../extension/components/list/ExchangeList.vue';
import { useDetailStore } from '../../../extension/stores/detail';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { fakeSummary } from '../../support/extension-factories';

let pinia: Pinia;
let wrapper: VueWrapper | undefined;

function show(...rows: ReturnType<typeof fakeSummary>[]) {
  useExchangesStore().applySnapshot([...rows].reverse(), { keepInFlight: false });
  // The footer would page older exchanges in over REST; these tests hold everything already.
  useExchangesStore().hasOlder = false;
  wrapper = mount(ExchangeList, { global: { plugins: [pinia] }, attachTo: document.body });
  return wrapper;
}

const cells = (w: VueWrapper, id: string) =>
  Object.fromEntries(
    w
      .get(`[data-id="${id}"]`)
      .findAll('[data-col]')
      .map((c) => [c.attributes('data-col'), c.text()]),
  );

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  wrapper?.unmount();
  vi.useRealTimers();
});

describe('the exchange list', () => {
  it('shows input with its cached part beside it, and output with its reasoning part, never added together', async () => {
    const s = fakeSummary({
      usage: { inputTokens: 6000, cachedTokens: 5000, cacheWriteTokens: null, outputTokens: 40, reasoningTokens: 24, totalTokens: 6040 },
    });
    const w = show(s);
    expect(cells(w, s.id)).toMatchObject({ input: '6,000', cached: '5,000', output: '40', reasoning: '24' });
    expect(w.text()).not.toContain('11,000');
    expect(w.text()).not.toContain('64');
  });

  it('shows unknown usage and an unpriced cost as unknown, not 0', () => {
    const s = fakeSummary({ status: 'failed', usage: null, costUsd: null, cache: null });
    const c = cells(show(s), s.id);
    expect([c.input, c.cached, c.output, c.reasoning, c.cache]).toEqual(['—', '—', '—', '—', '—']);
    expect(c.cost).toBe('unknown');
  });

  it('shows a reported 0 as 0 and a field the upstream did not report as —', () => {
    const s = fakeSummary({
      usage: { inputTokens: 100, cachedTokens: 0, cacheWriteTokens: null, outputTokens: 5, reasoningTokens: null, totalTokens: 105 },
    });
    expect(cells(show(s), s.id)).toMatchObject({ cached: '0', reasoning: '—' });
  });

  it('marks a cache miss with a badge that names its reasons', () => {
    const s = fakeSummary({
      cache: {
        verdict: 'miss',
        why: 'read 400 cached tokens where 4,096 were expected: 3,696 short',
        whyCode: { code: 'cacheWhy.miss', params: { cached: 400, expected: 4096, shortfall: 3696 } },
        hitRate: 0.1,
        miss: true,
        reasons: ['tools_changed', 'idle_gap'],
        expectedCachedTokens: 4096,
        missedTokens: 3000,
        missCostUsd: 0.01,
      },
    });
    const w = show(s);
    expect(w.get('[data-testid="miss-badge"]').text()).toBe('miss');
    expect(w.get(`[data-id="${s.id}"] [data-col="cache"]`).attributes('title')).toBe(
      'cache miss: read 400 cached tokens where 4,096 were expected: 3,696 short · reasons: tools_changed, idle_gap',
    );
  });

  it('renders only the rows in view, even with thousands held', () => {
    const many = Array.from({ length: 3000 }, () => fakeSummary());
    const w = show(...many);
    const rendered = w.findAll('[data-testid="exchange-row"]').length;
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(80);
  });

  it('runs no clock while no row streams', () => {
    vi.useFakeTimers();
    show(fakeSummary(), fakeSummary());
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ticks a streaming row’s duration, and stops the clock when it completes', async () => {
    vi.useFakeTimers();
    const s = fakeSummary({ status: 'streaming', startedAt: Date.now(), endedAt: null });
    const w = show(s, fakeSummary());
    expect(vi.getTimerCount()).toBe(1);
    const before = cells(w, s.id).duration;
    vi.advanceTimersByTime(3000);
    await w.vm.$nextTick();
    expect(cells(w, s.id).duration).not.toBe(before);
    useExchangesStore().applySummary({ ...s, status: 'completed', endedAt: Date.now() });
    await w.vm.$nextTick();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('moves the selection with the arrow keys, opens it with Enter and closes the detail with Escape, keeping the row selected', async () => {
    const [a, b] = [fakeSummary(), fakeSummary()];
    const w = show(a, b);
    const body = w.get('[data-testid="exchange-list"]');
    const selectedRow = () => w.find('[aria-selected="true"]').attributes('data-id');
    await body.trigger('keydown', { key: 'ArrowDown' });
    expect(selectedRow()).toBe(b.id);
    // As in the Network panel: moving the selection with the detail closed opens nothing.
    expect(useDetailStore().selectedId).toBeNull();
    await body.trigger('keydown', { key: 'j' });
    expect(selectedRow()).toBe(a.id);
    await body.trigger('keydown', { key: 'Enter' });
    expect(useDetailStore().selectedId).toBe(a.id);
    // With the detail open, it follows the selection.
    await body.trigger('keydown', { key: 'ArrowUp' });
    expect(useDetailStore().selectedId).toBe(b.id);
    await body.trigger('keydown', { key: 'Escape' });
    expect(useDetailStore().selectedId).toBeNull();
    expect(selectedRow()).toBe(b.id);
    await body.trigger('keydown', { key: 'Enter' });
    expect(useDetailStore().selectedId).toBe(b.id);
  });
});
