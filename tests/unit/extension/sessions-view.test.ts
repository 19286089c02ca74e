// @vitest-environment happy-dom
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionReport, SessionRowWire } from '../../../companion/protocol';
import SessionsView from '../../../extension/components/sessions/SessionsView.vue';
import { useSettingsStore } from '../../../extension/stores/settings';
import { fakeRollup } from '../../support/extension-factories';
import { stubCompanionApi } from '../../support/fake-api';

let asked: URL[];
let pinia: Pinia;
const mounted: VueWrapper[] = [];

function row(id: string, title: string, over: Partial<SessionRowWire> = {}): SessionRowWire {
  return {
    ...fakeRollup({ costUsd: 0.42, codexTokensUsed: 1234 }),
    cacheMisses: 0,
    missCostUsd: 0,
    sessionId: id,
    title,
    cwd: `/work/${id}`,
    models: ['gpt-5-codex'],
    startedAt: Date.UTC(2026, 10, 29, 12),
    endedAt: Date.UTC(2026, 10, 29, 13),
    rows: 3,
    ...over,
  };
}
function report(id: string, tokens: number): SessionReport {
  return {
    sessionId: id,
    startedAt: Date.UTC(2026, 10, 29, 12),
    endedAt: Date.UTC(2026, 10, 29, 13),
    totals: fakeRollup({ codexTokensUsed: tokens }),
    threads: [],
    turns: [],
    cache: {
      sessionId: id,
      points: [],
      misses: [],
      hitRate: null,
      fullPriceInputTokens: 0,
      missedTokens: 0,
      missShare: null,
      missCostUsd: 0,
    },
  };
}

const ROWS = [row('s-1', 'fix the parser', { cacheMisses: 2, missCostUsd: 0.05 }), row('s-2', 'add a migration')];

beforeEach(async () => {
  fakeBrowser.reset();
  asked = stubCompanionApi((u) => {
    if (u.pathname === '/api/sessions') {
      const q = u.searchParams.get('q');
      const items = q ? ROWS.filter((r) => r.title!.includes(q)) : ROWS;
      return { items, nextCursor: null, matched: items.length, stored: ROWS.length };
    }
    if (u.pathname === '/api/sessions/s-1/report') return report('s-1', 1111);
    if (u.pathname === '/api/sessions/s-2/report') return report('s-2', 2222);
    if (u.pathname.startsWith('/api/reports/')) return { items: [] };
    return undefined;
  });
  pinia = createPinia();
  setActivePinia(pinia);
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
});
afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function show(): VueWrapper {
  const w = mount(SessionsView, { global: { plugins: [pinia] }, attachTo: document.body });
  mounted.push(w);
  return w;
}
const reportsAsked = () => asked.filter((u) => u.pathname.endsWith('/report')).map((u) => u.pathname);

describe('the Sessions view over the paged session list', () => {
  it('lists sessions by title, folder, cost and misses from the paged list, and reads only the chosen session’s report', async () => {
    const w = show();
    await vi.waitFor(() => expect(w.findAll('[data-testid="session-item"]')).toHaveLength(2));
    expect(w.findAll('[data-testid="session-title"]').map((e) => e.text())).toEqual(['fix the parser', 'add a migration']);
    expect(w.text()).toContain('/work/s-1');
    expect(w.findAll('[data-testid="session-cost"]').map((e) => e.text())).toEqual(['$0.42', '$0.42']);
    expect(w.get('[data-testid="session-misses"]').text()).toContain('2');
    expect(asked.some((u) => u.pathname === '/api/sessions' && u.searchParams.get('limit') === '50')).toBe(true);
    await vi.waitFor(() => expect(w.get('[data-testid="session-totals"]').text()).toContain('1,111'));
    expect(reportsAsked()).toEqual(['/api/sessions/s-1/report']);

    await w.findAll('[data-testid="session-item"]')[1].trigger('click');
    await vi.waitFor(() => expect(w.get('[data-testid="session-totals"]').text()).toContain('2,222'));
    expect(reportsAsked()).toEqual(['/api/sessions/s-1/report', '/api/sessions/s-2/report']);
  });

  it('searches every stored session on the companion', async () => {
    const w = show();
    await vi.waitFor(() => expect(w.findAll('[data-testid="session-item"]')).toHaveLength(2));
    await w.get('[data-testid="session-search"]').setValue('migration');
    await vi.waitFor(() => expect(w.findAll('[data-testid="session-item"]')).toHaveLength(1), { timeout: 2000 });
    expect(asked.some((u) => u.pathname === '/api/sessions' && u.searchParams.get('q') === 'migration')).toBe(true);
    expect(w.get('[data-testid="session-title"]').text()).toBe('add a migration');
    await flushPromises();
  });
});
