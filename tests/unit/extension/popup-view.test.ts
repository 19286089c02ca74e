// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PopupApp from '../../../extension/components/popup/PopupApp.vue';
import { useConnectionStore } from '../../../extension/stores/connection';
import { useSettingsStore } from '../../../extension/stores/settings';
import { DEFAULT_PROFILE, fakeLiveUsage, fakeRateLimits, fakeRollup, fakeSnapshot } from '../../support/extension-factories';
import { fakeConnections, type FakeSocket } from '../../support/fake-connection';

const WORK = {
  id: 'work',
  name: 'Work proxy',
  baseUrl: 'https://llm.example.com/v1',
  keyMasked: '[redacted …abcd]',
  modelOverride: null,
  forwardCodexCredentials: false,
  builtin: false,
};

let pinia: Pinia;
let wrapper: VueWrapper | undefined;
let fetchCalls: { url: string; init?: RequestInit }[];

async function openPopup(snapshot = fakeSnapshot(1)): Promise<{ w: VueWrapper; socket: FakeSocket }> {
  fetchCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      fetchCalls.push({ url, init });
      const body = url.endsWith('/profiles/active') ? WORK : { activeId: 'default', profiles: [DEFAULT_PROFILE, WORK] };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
  const conns = fakeConnections();
  useConnectionStore().start({ connect: conns.connect, scope: 'usage' });
  const socket = conns.latest();
  socket.accept();
  socket.deliver(snapshot);
  wrapper = mount(PopupApp, { global: { plugins: [pinia] }, attachTo: document.body });
  await flushPromises();
  return { w: wrapper, socket };
}

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  useConnectionStore().stop();
  vi.unstubAllGlobals();
});

describe('the popup', () => {
  it('asks the live feed for usage only', async () => {
    const { socket } = await openPopup();
    expect(socket.sent[0]).toMatchObject({ type: 'hello', scope: 'usage' });
  });

  it('shows today and the session as Codex counts them beside all traffic, with cost and cached share', async () => {
    const usage = fakeLiveUsage({
      today: fakeRollup({ codexTokensUsed: 2996, allTrafficTokens: 3912, uncounted: { subagentTokens: 916 }, costUsd: 0.0123 }),
      session: { sessionId: 's1', usage: fakeRollup({ codexTokensUsed: 1956, inputTokens: 11000, cachedTokens: 9096 }) },
    });
    const { w } = await openPopup(fakeSnapshot(1, [], { usage }));
    expect(w.get('[data-testid="status"]').text()).toContain('connected');
    expect(w.get('[data-testid="today-codex-tokens"]').text()).toBe('2,996');
    expect(w.get('[data-testid="today-all-tokens"]').text()).toBe('3,912');
    expect(w.get('[data-testid="session-codex-tokens"]').text()).toBe('1,956');
    expect(w.get('[data-testid="session-cached-share"]').text()).toBe('83%');
    expect(w.get('[data-testid="today-cost"]').text()).toBe('$0.01');
    expect(w.get('[data-testid="uncounted"]').text()).toContain('sub-agents 916');
  });

  it('updates its counters live', async () => {
    const { w, socket } = await openPopup();
    socket.deliver({ type: 'usage/updated', seq: 2, usage: fakeLiveUsage({ today: { codexTokensUsed: 4242 } }) });
    await flushPromises();
    expect(w.get('[data-testid="today-codex-tokens"]').text()).toBe('4,242');
  });

  it('says "unknown" for a cost when nothing was priced, and counts what was not', async () => {
    const usage = fakeLiveUsage({ today: fakeRollup({ costUsd: 0, unpricedExchanges: 2, exchangesWithUsage: 2 }), session: null });
    const { w } = await openPopup(fakeSnapshot(1, [], { usage }));
    expect(w.get('[data-testid="today-cost"]').text()).toBe('unknown');
  });

  it('highlights a rate-limit gauge from 80 % used', async () => {
    const { w } = await openPopup(fakeSnapshot(1, [], { rateLimits: fakeRateLimits(80, 79.9) }));
    const gauges = w.findAll('[data-testid="gauge"]');
    expect(gauges.map((g) => g.get('[data-testid="gauge-percent"]').text())).toEqual(['80% used', '80% used']);
    expect(gauges.map((g) => g.classes('high'))).toEqual([true, false]);
    expect(gauges[0].text()).toContain('5 h window');
    expect(gauges[1].text()).toContain('weekly window');
  });

  it('marks a rate limit read before its window reset as stale, with when it was read, instead of showing it as current', async () => {
    // A 429 two hours ago: the 5-hour window was full and has reset an hour ago; the weekly one has not.
    const twoHoursAgo = Date.now() - 2 * 3600_000;
    const limits = { ...fakeRateLimits(100, 42.5, twoHoursAgo), reachedType: 'usage_limit_reached' };
    const { w } = await openPopup(fakeSnapshot(1, [], { rateLimits: limits }));
    expect(w.get('[data-testid="limit-observed"]').text()).toBe('as of 2 h 00 m ago');
    const [primary, secondary] = w.findAll('[data-testid="gauge"]');
    expect(primary.attributes('data-stale')).toBe('true');
    expect(primary.classes('high')).toBe(false);
    expect(primary.get('[data-testid="gauge-stale"]').text()).toContain('stale: this window reset 1 h 00 m ago');
    expect(secondary.attributes('data-stale')).toBe('false');
    expect(secondary.find('[data-testid="gauge-stale"]').exists()).toBe(false);
    // One window is still current, so the "limit reached" reading still shows, dated.
    expect(w.get('[data-testid="rate-limits"]').text()).toMatch(/Limit reached: usage_limit_reached \(as of \d\d:\d\d:\d\d\)/);
  });

  it('shows that capture is paused', async () => {
    const { w } = await openPopup(fakeSnapshot(1, [], { capture: { paused: true, errors: 0, lastError: null } }));
    expect(w.get('[data-testid="capture-paused"]').text()).toContain('paused');
  });

  it('warns before switching to a non-default profile, and switches only after the warning is accepted', async () => {
    const { w } = await openPopup();
    const work = w.findAll('[data-testid="profile-option"]').find((o) => o.text().includes('Work proxy'))!;
    await work.get('input').trigger('change');
    const warning = w.get('[data-testid="profile-warning"]');
    expect(warning.text()).toContain('entitled to use');
    expect(warning.text()).toContain('your prompts, fragments of your files, command outputs and tool context');
    expect(fetchCalls.some((c) => c.url.endsWith('/profiles/active'))).toBe(false);
    await w.get('[data-testid="profile-confirm"]').trigger('click');
    await flushPromises();
    const call = fetchCalls.find((c) => c.url.endsWith('/profiles/active'));
    expect(JSON.parse(String(call?.init?.body))).toEqual({ id: 'work' });
  });
});
