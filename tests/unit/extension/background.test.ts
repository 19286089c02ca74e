import { getActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BADGE_STREAMING } from '../../../extension/lib/badge';
import { RETRY_ALARM, startBackground } from '../../../extension/lib/background';
import { writeSettings } from '../../../extension/lib/settings-storage';
import { WAKE_MESSAGE } from '../../../extension/lib/wake';
import { useConnectionStore } from '../../../extension/stores/connection';
import { fakeRateLimits, fakeSnapshot } from '../../support/extension-factories';
import { fakeConnections } from '../../support/fake-connection';

beforeEach(() => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.action, 'setTitle').mockResolvedValue(undefined);
});
afterEach(() => {
  if (getActivePinia()) useConnectionStore().stop();
});

async function started() {
  await writeSettings({ port: 8642, token: 'test-token-0123456789' });
  const badge = vi.spyOn(fakeBrowser.action, 'setBadgeText');
  const conns = fakeConnections();
  await startBackground(conns.connect);
  return { badge, conns };
}

const lastBadge = (spy: ReturnType<typeof vi.spyOn>) => (spy.mock.calls.at(-1)?.[0] as { text: string } | undefined)?.text;

describe('the background', () => {
  it('holds a usage-only feed and shows rate-limit use on the badge from 80 %', async () => {
    const { badge, conns } = await started();
    const socket = conns.latest();
    socket.accept();
    expect(socket.sent[0]).toMatchObject({ type: 'hello', scope: 'usage' });
    socket.deliver(fakeSnapshot(1, [], { rateLimits: fakeRateLimits(30, 20) }));
    await vi.waitFor(() => expect(badge).toHaveBeenCalled());
    expect(lastBadge(badge)).toBe('');
    socket.deliver({ type: 'ratelimits/updated', seq: 2, rateLimits: fakeRateLimits(30, 86) });
    await vi.waitFor(() => expect(lastBadge(badge)).toBe('86%'));
  });

  it('puts "!" on the badge when capture reports errors', async () => {
    const { badge, conns } = await started();
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, [], { capture: { paused: false, errors: 3, lastError: 'disk full' } }));
    await vi.waitFor(() => expect(lastBadge(badge)).toBe('!'));
  });

  it('shows activity on the badge while a response streams, and clears it when none does', async () => {
    const { badge, conns } = await started();
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, [], { streaming: 1 }));
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(BADGE_STREAMING));
    conns.latest().deliver({ type: 'activity/changed', seq: 2, streaming: 2 });
    conns.latest().deliver({ type: 'activity/changed', seq: 3, streaming: 0 });
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(''));
  });

  it('never keeps an activity mark its feed can no longer vouch for', async () => {
    const { badge, conns } = await started();
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, [], { streaming: 1 }));
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(BADGE_STREAMING));
    // The companion went away mid-stream: no one will say the stream ended.
    conns.latest().drop(1006, '');
    await vi.waitFor(() => expect(lastBadge(badge)).toBe('off'));
  });

  it('starts with a blank badge after the browser stopped the worker with the activity mark on', async () => {
    await fakeBrowser.action.setBadgeText({ text: BADGE_STREAMING });
    const { badge, conns } = await started();
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(''));
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, [], { streaming: 0 }));
    await vi.waitFor(() => expect(badge.mock.calls.some((c) => (c[0] as { text: string }).text === BADGE_STREAMING)).toBe(false));
  });

  it('says "off" on the badge when the companion goes away, and clears it when the feed is back', async () => {
    const { badge, conns } = await started();
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, []));
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(''));
    conns.latest().drop(1006, '');
    await vi.waitFor(() => expect(lastBadge(badge)).toBe('off'));
    useConnectionStore().retryNow();
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, []));
    await vi.waitFor(() => expect(lastBadge(badge)).toBe(''));
  });

  it('keeps a 30 s alarm that retries a lost companion, and leaves a connected feed alone', async () => {
    const { conns } = await started();
    expect(await fakeBrowser.alarms.get(RETRY_ALARM)).toMatchObject({ periodInMinutes: 0.5 });
    conns.latest().accept();
    conns.latest().deliver(fakeSnapshot(1, []));
    await fakeBrowser.alarms.onAlarm.trigger({ name: RETRY_ALARM, scheduledTime: Date.now() });
    expect(conns.sockets).toHaveLength(1);
    conns.latest().drop(1006, '');
    await fakeBrowser.alarms.onAlarm.trigger({ name: RETRY_ALARM, scheduledTime: Date.now() });
    expect(conns.sockets).toHaveLength(2);
  });

  it('reconnects at once when a page wakes it while the companion was unreachable', async () => {
    const { conns } = await started();
    conns.latest().drop(1006, '');
    expect(useConnectionStore().status).toBe('offline');
    await fakeBrowser.runtime.onMessage.trigger(WAKE_MESSAGE, {});
    expect(conns.sockets).toHaveLength(2);
  });
});
