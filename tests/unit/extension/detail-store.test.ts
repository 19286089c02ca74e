import { createPinia, setActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectionStore } from '../../../extension/stores/connection';
import { useDetailStore } from '../../../extension/stores/detail';
import { useSettingsStore } from '../../../extension/stores/settings';
import { fakeSnapshot, fakeSummary } from '../../support/extension-factories';
import { fakeConnections } from '../../support/fake-connection';

beforeEach(() => {
  fakeBrowser.reset();
  setActivePinia(createPinia());
});
afterEach(() => {
  useConnectionStore().stop();
  vi.unstubAllGlobals();
});

describe('the detail store', () => {
  it('streams the selected exchange’s text while it runs, reads its record as it stands, then loads it again once it ends', async () => {
    const fetched: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        fetched.push(url);
        return new Response(JSON.stringify({ error: 'not_found', message: 'gone' }), { status: 404 });
      }),
    );
    await useSettingsStore().pair({ port: 8642, token: 'test-token-0123456789' });
    const conns = fakeConnections();
    useConnectionStore().start({ connect: conns.connect, scope: 'full' });
    const socket = conns.latest();
    socket.accept();
    const s = fakeSummary({ status: 'streaming', usage: null, endedAt: null });
    socket.deliver(fakeSnapshot(1, []));
    socket.deliver({ type: 'exchange/started', seq: 2, exchange: s });

    const detail = useDetailStore();
    await detail.select(s.id);
    expect(socket.sent.at(-1)).toEqual({ type: 'exchange/subscribe', id: s.id });
    // The record as it stands is read at once (for the Context tab); not finding it is no error while it streams.
    expect(fetched).toEqual([`http://127.0.0.1:8642/api/exchanges/${s.id}`]);
    expect(detail.error).toBeNull();
    socket.deliver({
      type: 'exchange/progress',
      seq: 3,
      id: s.id,
      events: 3,
      outputChars: 6,
      estimatedOutputTokens: 2,
      items: [{ index: 0, kind: 'message', name: null, delta: 'Hello ' }],
    });
    socket.deliver({
      type: 'exchange/progress',
      seq: 4,
      id: s.id,
      events: 5,
      outputChars: 11,
      estimatedOutputTokens: 3,
      items: [{ index: 0, kind: 'message', name: null, delta: 'world' }],
    });
    expect(detail.liveItems).toEqual([{ index: 0, kind: 'message', name: null, text: 'Hello world', truncated: false }]);

    socket.deliver({ type: 'exchange/completed', seq: 5, exchange: { ...s, status: 'completed', endedAt: s.startedAt + 800 } });
    expect(socket.sent.at(-1)).toEqual({ type: 'exchange/unsubscribe', id: s.id });
    await vi.waitFor(() => expect(detail.error).toContain('no longer stored'));
    expect(fetched).toEqual([`http://127.0.0.1:8642/api/exchanges/${s.id}`, `http://127.0.0.1:8642/api/exchanges/${s.id}`]);
  });
});
