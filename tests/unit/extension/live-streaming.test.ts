// @vitest-environment happy-dom
import '../../support/happy-dom-node-accessors';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveItemDelta } from '../../../companion/protocol';
import PanelApp from '../../../extension/components/panel/PanelApp.vue';
import { useConnectionStore } from '../../../extension/stores/connection';
import { useDetailStore } from '../../../extension/stores/detail';
import { useSettingsStore } from '../../../extension/stores/settings';
import { useUiStore } from '../../../extension/stores/ui';
import { fakeSnapshot, fakeSummary } from '../../support/extension-factories';
import { fakeConnections, type FakeSocket } from '../../support/fake-connection';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
let pinia: Pinia;
let wrapper: VueWrapper | undefined;
let seq = 2;

beforeEach(() => {
  fakeBrowser.reset();
  pinia = createPinia();
  setActivePinia(pinia);
  seq = 2;
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = undefined;
  useConnectionStore().stop();
  vi.unstubAllGlobals();
  delete (window as { __pwned?: unknown }).__pwned;
});

async function streamingPanel() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 500 })),
  );
  await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
  const conns = fakeConnections();
  useConnectionStore().start({ connect: conns.connect, scope: 'full' });
  const socket = conns.latest();
  socket.accept();
  const s = fakeSummary({ status: 'streaming', usage: null, endedAt: null, preview: null });
  socket.deliver(fakeSnapshot(1, []));
  socket.deliver({ type: 'exchange/started', seq: seq++, exchange: s });
  wrapper = mount(PanelApp, { global: { plugins: [pinia] }, attachTo: document.body });
  await flushPromises();
  return { socket, s, conns };
}

function progress(socket: FakeSocket, id: string, items: LiveItemDelta[] | undefined, preview: object | null = null, tokens = 9) {
  socket.deliver({
    type: 'exchange/progress',
    seq: seq++,
    id,
    events: seq,
    outputChars: 40,
    estimatedOutputTokens: tokens,
    preview,
    items,
  } as never);
}

describe('a response while it streams', () => {
  it('shows the reasoning text and the tool call with its arguments in the Response tab as they arrive', async () => {
    const { socket, s } = await streamingPanel();
    useUiStore().setTab('response');
    await useDetailStore().select(s.id);
    await flushPromises();
    expect(socket.sent.at(-1)).toEqual({ type: 'exchange/subscribe', id: s.id });
    progress(socket, s.id, [
      { index: 0, kind: 'reasoning', name: null, delta: 'Checking the ' },
      { index: 1, kind: 'function_call', name: 'exec_command', delta: '' },
    ]);
    await flushPromises();
    const items = () => wrapper!.findAll('[data-testid="live-item"]');
    expect(items().map((i) => i.attributes('data-kind'))).toEqual(['reasoning', 'function_call']);
    expect(items()[0].get('[data-testid="live-item-text"]').text()).toBe('Checking the');
    expect(items()[1].get('[data-testid="live-item-name"]').text()).toBe('exec_command');
    expect(items()[1].find('[data-testid="live-item-text"]').exists()).toBe(false);
    progress(socket, s.id, [
      { index: 0, kind: 'reasoning', name: null, delta: 'layout.' },
      { index: 1, kind: 'function_call', name: 'exec_command', delta: `{"cmd":"echo ${HOSTILE}"}` },
    ]);
    await flushPromises();
    expect(items()[0].get('[data-testid="live-item-text"]').text()).toBe('Checking the layout.');
    expect(items()[1].get('[data-testid="live-item-text"]').text()).toBe(`{"cmd":"echo ${HOSTILE}"}`);
    expect(wrapper!.find('[data-testid="live-item"] img').exists()).toBe(false);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
    expect(wrapper!.get('[data-testid="response-tab"]').text()).toContain('~9 output tokens');
  });

  it('says when an item’s live text was cut, and that the record will have all of it', async () => {
    const { socket, s } = await streamingPanel();
    useUiStore().setTab('response');
    await useDetailStore().select(s.id);
    progress(socket, s.id, [{ index: 0, kind: 'function_call', name: 'apply_patch', delta: 'x'.repeat(50), truncated: true }]);
    await flushPromises();
    expect(wrapper!.get('[data-testid="live-item-truncated"]').text()).toContain('full text shows when the response ends');
  });

  it('previews what is being written in the row, for reasoning and for a tool call', async () => {
    const { socket, s } = await streamingPanel();
    const preview = () => wrapper!.get(`[data-id="${s.id}"] [data-col="preview"]`).text();
    expect(preview()).toBe('');
    progress(socket, s.id, undefined, { kind: 'reasoning', name: null, text: 'the failing test first' });
    await flushPromises();
    expect(preview()).toBe('Reasoning: the failing test first');
    progress(socket, s.id, undefined, { kind: 'function_call', name: 'exec_command', text: '{"cmd":"ls"}' }, 14);
    await flushPromises();
    expect(preview()).toBe('→ exec_command {"cmd":"ls"}');
    expect(wrapper!.get(`[data-id="${s.id}"] [data-col="output"]`).text()).toBe('~14');
  });

  it('takes the text from the start again after a reconnect, instead of appending it twice', async () => {
    const { socket, s, conns } = await streamingPanel();
    useUiStore().setTab('response');
    await useDetailStore().select(s.id);
    progress(socket, s.id, [{ index: 0, kind: 'message', name: null, delta: 'Hello' }]);
    socket.drop(1006, '');
    useConnectionStore().retryNow();
    const next = conns.latest();
    next.accept();
    seq = 2;
    next.deliver(fakeSnapshot(1, [s]));
    expect(next.sent.at(-1)).toEqual({ type: 'exchange/subscribe', id: s.id });
    // The companion sends a new subscriber everything so far.
    progress(next, s.id, [{ index: 0, kind: 'message', name: null, delta: 'Hello world' }]);
    await flushPromises();
    expect(useDetailStore().liveItems.map((i) => i.text)).toEqual(['Hello world']);
  });
});
