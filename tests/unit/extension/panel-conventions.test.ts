// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeRecord } from '../../../companion/protocol';
import { withLayout } from '../../../companion/analysis/layout';
import PanelApp from '../../../extension/components/panel/PanelApp.vue';
import { COPIED_MS } from '../../../extension/lib/use-copy';
import { useDetailStore } from '../../../extension/stores/detail';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useSettingsStore } from '../../../extension/stores/settings';
import { fakeSummary } from '../../support/extension-factories';
import { analyseAll, loadFixture, recordFrom } from '../../support/records';

const CURL = "curl 'https://api.openai.com/v1/responses' \\\n  --data-raw '{}'";
let record: ExchangeRecord;
let pinia: Pinia;
let wrapper: VueWrapper | undefined;
let requests: { method: string; url: string }[] = [];
let copied: string[] = [];

beforeAll(async () => {
  [record] = analyseAll([await recordFrom(loadFixture('codemode-text-1.json'), { id: 'x-conv' })]);
});

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
  requests = [];
  copied = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ method: init?.method ?? 'GET', url });
      const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url.endsWith('/curl')) return json({ command: CURL });
      if (init?.method === 'DELETE') return json({ deleted: 3 });
      return json(withLayout(record));
    }),
  );
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (t: string) => void copied.push(t) },
  });
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function panel(rows = [record as ReturnType<typeof fakeSummary>]): Promise<VueWrapper> {
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
  useExchangesStore().applySnapshot(rows, { keepInFlight: false });
  useExchangesStore().hasOlder = false;
  wrapper = mount(PanelApp, { global: { plugins: [pinia] }, attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const selectedRow = (w: VueWrapper) => w.find('[data-testid="exchange-row"][aria-selected="true"]');

describe('the panel, as DevTools panels work', () => {
  it('closes the detail with Esc from its tab strip, keeps the row selected and gives the list the keyboard', async () => {
    const w = await panel();
    await w.get('[data-testid="exchange-row"]').trigger('mousedown');
    await flushPromises();
    expect(w.find('[data-testid="detail-pane"]').exists()).toBe(true);
    await w.get('[data-tab="headers"]').trigger('keydown', { key: 'Escape' });
    await flushPromises();
    expect(w.find('[data-testid="detail-pane"]').exists()).toBe(false);
    expect(selectedRow(w).attributes('data-id')).toBe(record.id);
    expect(document.activeElement).toBe(w.get('[data-testid="exchange-list"]').element);
    await w.get('[data-testid="exchange-list"]').trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(w.find('[data-testid="detail-pane"]').exists()).toBe(true);
  });

  it('focuses the filter box on Ctrl+F and on Cmd+F', async () => {
    const w = await panel();
    const search = w.get('[data-testid="search"]').element;
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true }));
    expect(document.activeElement).toBe(search);
    (document.activeElement as HTMLElement).blur();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', metaKey: true }));
    expect(document.activeElement).toBe(search);
  });

  it('copies the request as cURL from the companion, and confirms for a moment', async () => {
    const w = await panel();
    await useDetailStore().select(record.id);
    await w.get('[data-tab="headers"]').trigger('click');
    await flushPromises();
    vi.useFakeTimers();
    const button = w.get('[data-testid="copy-curl"]');
    expect(button.text()).toBe('Copy as cURL');
    await button.trigger('click');
    await flushPromises();
    expect(copied).toEqual([CURL]);
    expect(requests.at(-1)).toEqual({ method: 'GET', url: `http://127.0.0.1:8642/api/exchanges/${record.id}/curl` });
    expect(button.text()).toBe('Copied');
    await vi.advanceTimersByTimeAsync(COPIED_MS);
    expect(button.text()).toBe('Copy as cURL');
  });

  it('says a copy failed instead of confirming it', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async () => Promise.reject(new Error('Document is not focused')) },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const w = await panel();
    await useDetailStore().select(record.id);
    await w.get('[data-tab="raw"]').trigger('click');
    await flushPromises();
    const button = w.get('[data-testid="copy-button"]');
    await button.trigger('click');
    await flushPromises();
    expect(button.text()).toBe('Copy failed');
  });

  it('clears the view without deleting anything: rows hide until new ones arrive', async () => {
    const [a, b] = [fakeSummary(), fakeSummary()];
    const w = await panel([b, a]);
    await w.get('[data-testid="clear"]').trigger('click');
    expect(w.findAll('[data-testid="exchange-row"]')).toHaveLength(0);
    expect(w.get('[data-testid="cleared"]').text()).toContain('history stays stored');
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(useExchangesStore().count).toBe(2);
    const c = fakeSummary({ startedAt: b.startedAt + 1000 });
    useExchangesStore().applySummary(c);
    await flushPromises();
    expect(w.findAll('[data-testid="exchange-row"]').map((r) => r.attributes('data-id'))).toEqual([c.id]);
  });

  it('offers no older page once cleared: what a cleared view hides is what is older', async () => {
    const [a, b] = [fakeSummary(), fakeSummary()];
    const w = await panel([b, a]);
    useExchangesStore().hasOlder = true;
    await flushPromises();
    const loadOlder = () => w.findAll('.foot button').filter((x) => x.text() === 'Load older');
    expect(loadOlder()).toHaveLength(1);
    const asked = requests.length;
    await w.get('[data-testid="clear"]').trigger('click');
    useExchangesStore().applySummary(fakeSummary({ startedAt: b.startedAt + 1000 }));
    await flushPromises();
    expect(w.findAll('[data-testid="exchange-row"]')).toHaveLength(1);
    // Neither offered nor fetched on reaching the end of the one row.
    expect(w.get('.foot').text()).toBe('');
    expect(requests.slice(asked).filter((r) => r.url.includes('/api/exchanges'))).toEqual([]);
  });

  it('deletes the stored history only when "Delete history…" is confirmed by a second click', async () => {
    const w = await panel([fakeSummary()]);
    const del = w.get('[data-testid="delete-history"]');
    expect(del.text()).toBe('Delete history…');
    await del.trigger('click');
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(del.text()).toBe('Click again to delete all');
    await del.trigger('click');
    await flushPromises();
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([{ method: 'DELETE', url: 'http://127.0.0.1:8642/api/exchanges' }]);
  });

  it('gives every number cell its full value on hover, for when the column cuts it', async () => {
    const s = fakeSummary({ usage: { inputTokens: 250_012, cachedTokens: 249_856, outputTokens: 1_234, reasoningTokens: 1_000 } });
    const w = await panel([s]);
    const cell = (col: string) => w.get(`[data-id="${s.id}"] [data-col="${col}"]`);
    expect(cell('input').attributes('title')).toBe('250,012');
    expect(cell('cached').attributes('title')).toBe('249,856');
    expect(cell('output').attributes('title')).toBe('1,234');
    expect(cell('reasoning').attributes('title')).toBe('1,000');
    expect(cell('cost').attributes('title')).toBe(cell('cost').text());
  });
});
