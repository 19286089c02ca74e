// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExchangeList from '../../../extension/components/list/ExchangeList.vue';
import { fitColumns, type ColumnKey } from '../../../extension/lib/list-columns';
import { splitTabs } from '../../../extension/lib/tab-overflow';
import { useColumnsStore } from '../../../extension/stores/columns';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useFiltersStore } from '../../../extension/stores/filters';
import { DETAIL_TABS } from '../../../extension/stores/ui';
import { fakeSummary } from '../../support/extension-factories';

const NONE = new Set<ColumnKey>();
let pinia: Pinia;
let wrapper: VueWrapper | undefined;

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => wrapper?.unmount());

function mountList(...rows: ReturnType<typeof fakeSummary>[]): VueWrapper {
  useExchangesStore().applySnapshot([...rows].reverse(), { keepInFlight: false });
  useExchangesStore().hasOlder = false;
  wrapper = mount(ExchangeList, { global: { plugins: [pinia] }, attachTo: document.body });
  return wrapper;
}

describe('the list columns for a dock width', () => {
  it.each([400, 550, 800, 1600])('keep Time, Preview, Input, Cost and Cache at %i px', (width) => {
    expect(fitColumns(width - 15, NONE)).toEqual(expect.arrayContaining(['time', 'preview', 'input', 'cost', 'cache']));
  });

  it('add the other columns by priority as the width grows, and every one at 1600 px', () => {
    const at550 = fitColumns(535, NONE);
    const at800 = fitColumns(785, NONE);
    expect(at550).toContain('status');
    expect(at550).not.toContain('reasoning');
    expect(at800.length).toBeGreaterThan(at550.length);
    expect(fitColumns(1585, NONE)).toHaveLength(13);
  });

  it('leave out the columns the user turned off, whatever the width', () => {
    expect(fitColumns(1585, new Set<ColumnKey>(['model', 'cost']))).not.toEqual(expect.arrayContaining(['model']));
    expect(fitColumns(1585, new Set<ColumnKey>(['model', 'cost']))).not.toContain('cost');
  });
});

describe('the detail tab strip', () => {
  const widths = DETAIL_TABS.map(() => 80);

  it('puts the tabs that do not fit in the overflow menu, in order', () => {
    const { strip, overflow } = splitTabs(DETAIL_TABS, widths, 400, 'context');
    expect(strip).toEqual(['context', 'response', 'diff', 'cache']);
    expect(overflow).toEqual(['usage', 'headers', 'raw']);
  });

  it('keeps the selected tab in the strip even when it would overflow', () => {
    const { strip, overflow } = splitTabs(DETAIL_TABS, widths, 400, 'raw');
    expect(strip).toEqual(['context', 'response', 'diff', 'raw']);
    expect(overflow).toEqual(['cache', 'usage', 'headers']);
  });

  it('shows every tab when they fit', () => {
    expect(splitTabs(DETAIL_TABS, widths, 800, 'context').overflow).toEqual([]);
  });
});

describe('the list header', () => {
  it('asks the companion to sort by a column when its header is clicked: largest first, then smallest, then the live order', async () => {
    const w = mountList(fakeSummary());
    const f = useFiltersStore();
    await w.get('[data-sort="cost"]').trigger('click');
    expect(f.query).toMatchObject({ sort: 'cost', order: 'desc' });
    expect(w.get('[role="columnheader"][data-col="cost"]').attributes('aria-sort')).toBe('descending');
    await w.get('[data-sort="cost"]').trigger('click');
    expect(f.query).toMatchObject({ sort: 'cost', order: 'asc' });
    await w.get('[data-sort="cost"]').trigger('click');
    expect(f.active).toBe(false);
  });

  it('remembers a column turned off in the chooser for the next panel', async () => {
    const s = fakeSummary();
    const w = mountList(s);
    await vi.waitFor(() => expect(w.find(`[data-id="${s.id}"] [data-col="model"]`).exists()).toBe(true));
    await w.get('[data-testid="column-chooser"]').trigger('click');
    await w.get('[data-col-toggle="model"]').trigger('change');
    await vi.waitFor(() => expect(w.find(`[data-id="${s.id}"] [data-col="model"]`).exists()).toBe(false));
    w.unmount();
    wrapper = undefined;
    // A new panel: a fresh store reads the choice back from storage.
    pinia = createPinia();
    setActivePinia(pinia);
    await useColumnsStore().load();
    expect(useColumnsStore().hidden.has('model')).toBe(true);
    const again = mountList(s);
    expect(again.find(`[data-id="${s.id}"] [data-col="model"]`).exists()).toBe(false);
    expect(again.find(`[data-id="${s.id}"] [data-col="input"]`).exists()).toBe(true);
  });

  it('marks imported exchanges in the list', () => {
    const imported = fakeSummary({ source: 'rollout' });
    const captured = fakeSummary();
    const w = mountList(captured, imported);
    expect(w.find(`[data-id="${imported.id}"] [data-testid="imported-mark"]`).exists()).toBe(true);
    expect(w.find(`[data-id="${captured.id}"] [data-testid="imported-mark"]`).exists()).toBe(false);
  });

  it('carries the full value of every cell as its title, for when it is cut short', () => {
    const s = fakeSummary({ preview: 'a long prompt '.repeat(20) });
    const w = mountList(s);
    for (const col of ['input', 'cost', 'preview', 'output'])
      expect(w.get(`[data-id="${s.id}"] [data-col="${col}"]`).attributes('title')?.trim(), col).toBe(
        w
          .get(`[data-id="${s.id}"] [data-col="${col}"]`)
          .text()
          .replace(/^imported/, ''),
      );
  });
});
