// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExchangeList from '../../../extension/components/list/ExchangeList.vue';
import CostTriage from '../../../extension/components/sessions/CostTriage.vue';
import { useDetailStore } from '../../../extension/stores/detail';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useFiltersStore } from '../../../extension/stores/filters';
import { useSettingsStore } from '../../../extension/stores/settings';
import { fakeSummary } from '../../support/extension-factories';
import { stubCompanionApi } from '../../support/fake-api';

let pinia: Pinia;
let wrapper: VueWrapper | undefined;
let asked: URL[];

const costly = fakeSummary({ costUsd: 1.25, preview: 'refactor everything' });
const miss = fakeSummary({
  cache: {
    verdict: 'miss',
    why: 'the tools changed',
    hitRate: 0,
    miss: true,
    reasons: ['tools_changed'],
    expectedCachedTokens: 4096,
    missedTokens: 4096,
    missCostUsd: 0.02,
  },
});

beforeEach(async () => {
  fakeBrowser.reset();
  asked = stubCompanionApi((u) => ({
    items: u.pathname === '/api/reports/expensive' ? [costly] : u.pathname === '/api/reports/cache-misses' ? [miss] : [],
  }));
  pinia = createPinia();
  setActivePinia(pinia);
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
});
afterEach(() => {
  wrapper?.unmount();
  vi.unstubAllGlobals();
});

describe('cost triage', () => {
  it('lists a session’s costliest exchanges and its cache misses by cost from the companion’s reports', async () => {
    wrapper = mount(CostTriage, { props: { session: 'sess-9' }, global: { plugins: [pinia] } });
    await vi.waitFor(() => expect(wrapper!.findAll('[data-testid="triage-miss"]')).toHaveLength(1));
    expect(wrapper.get('[data-testid="triage-expensive"]').text()).toContain('$1.25');
    expect(wrapper.get('[data-testid="triage-miss"]').text()).toContain('+$0.02');
    expect(asked.map((u) => [u.pathname, u.searchParams.get('session')])).toEqual([
      ['/api/reports/expensive', 'sess-9'],
      ['/api/reports/cache-misses', 'sess-9'],
    ]);
  });

  it('hands a clicked miss over to the list: the session’s misses by cost, with that miss in it', async () => {
    wrapper = mount(CostTriage, { props: { session: 'sess-9' }, global: { plugins: [pinia] } });
    await vi.waitFor(() => expect(wrapper!.findAll('[data-testid="triage-miss"]')).toHaveLength(1));
    await wrapper.get('[data-testid="triage-miss"]').trigger('click');
    expect(wrapper.emitted('open')).toEqual([[miss.id, true]]);
    useFiltersStore().showByCost('sess-9', true);
    expect(useFiltersStore().query).toEqual({ session: 'sess-9', miss: 1, sort: 'missCost', order: 'desc' });
  });

  it('scrolls the list to an exchange opened from elsewhere', async () => {
    const rows = Array.from({ length: 120 }, () => fakeSummary());
    useExchangesStore().applySnapshot([...rows].reverse(), { keepInFlight: false });
    useExchangesStore().hasOlder = false;
    wrapper = mount(ExchangeList, { global: { plugins: [pinia] }, attachTo: document.body });
    const body = wrapper.get('[data-testid="exchange-list"]').element as HTMLElement;
    expect(body.scrollTop).toBe(0);
    void useDetailStore().select(rows[0].id); // the oldest: last in the list
    await vi.waitFor(() => expect(body.scrollTop).toBeGreaterThan(100 * 21));
  });
});
