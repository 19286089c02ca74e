import { createPinia, setActivePinia } from 'pinia';
import { fakeBrowser } from 'wxt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '../../../companion/protocol';
import { useConnectionStore } from '../../../extension/stores/connection';
import { useExchangesStore } from '../../../extension/stores/exchanges';
import { useSettingsStore } from '../../../extension/stores/settings';
import { useUsageStore } from '../../../extension/stores/usage';
import { fakeConnections, type FakeSocket } from '../../support/fake-connection';
import { fakeLiveUsage, fakeRateLimits, fakeRollup, fakeSnapshot, fakeSummary } from '../../support/extension-factories';

const TOKEN = 'test-token-0123456789';

async function connect(scope: 'full' | 'usage' = 'full') {
  await useSettingsStore().pair({ port: 8642, token: TOKEN });
  const conns = fakeConnections();
  const connection = useConnectionStore();
  connection.start({ connect: conns.connect, scope, backoff: { baseMs: 500, maxMs: 4000 } });
  const socket = conns.latest();
  socket.accept();
  return { conns, socket, connection };
}

const ids = () => useExchangesStore().all.map((s) => s.id);
const resyncs = (s: FakeSocket) => s.sent.filter((m) => m.type === 'feed/resync').length;

beforeEach(() => {
  fakeBrowser.reset();
  setActivePinia(createPinia());
});
afterEach(() => {
  useConnectionStore().stop();
  vi.useRealTimers();
});

describe('the connection store', () => {
  it('says hello first with the pairing token, the protocol version and its scope', async () => {
    const { socket } = await connect('usage');
    expect(socket.url).toBe('ws://127.0.0.1:8642/api/live');
    expect(socket.sent[0]).toEqual({ type: 'hello', token: TOKEN, protocol: PROTOCOL_VERSION, scope: 'usage' });
  });

  it('is connected once the snapshot arrives, and shows its exchanges newest first', async () => {
    const { socket, connection } = await connect();
    expect(connection.status).toBe('connecting');
    const [a, b] = [fakeSummary(), fakeSummary()];
    socket.deliver(fakeSnapshot(1, [b, a]));
    expect(connection.status).toBe('connected');
    expect(connection.companionVersion).toBe('0.1.0');
    expect(ids()).toEqual([b.id, a.id]);
  });

  it('appends live exchanges after the snapshot in the order they start', async () => {
    const { socket } = await connect();
    const old = fakeSummary();
    socket.deliver(fakeSnapshot(1, [old]));
    const s1 = fakeSummary({ status: 'streaming', usage: null, endedAt: null });
    socket.deliver({ type: 'exchange/started', seq: 2, exchange: s1 });
    socket.deliver({ type: 'exchange/progress', seq: 3, id: s1.id, events: 4, outputChars: 20, estimatedOutputTokens: 5 });
    expect(useExchangesStore().progress.get(s1.id)?.estimatedOutputTokens).toBe(5);
    socket.deliver({ type: 'exchange/completed', seq: 4, exchange: { ...s1, status: 'completed', endedAt: s1.startedAt + 900 } });
    expect(ids()).toEqual([s1.id, old.id]);
    expect(useExchangesStore().get(s1.id)?.status).toBe('completed');
    expect(useExchangesStore().progress.has(s1.id)).toBe(false);
  });

  it('queues live updates that arrive while a snapshot is pending and replays them after it, in order', async () => {
    const { socket } = await connect();
    const a = fakeSummary();
    socket.deliver(fakeSnapshot(1, [a]));
    socket.deliver({ type: 'feed/reset', seq: 2, reason: 'the client fell behind the live feed' });
    expect(resyncs(socket)).toBe(1);
    // While the new snapshot is on its way: b starts and finishes (the snapshot will hold it),
    // c starts and streams (in flight: not stored, so not in the snapshot), and older totals pass.
    const b = fakeSummary();
    const c = fakeSummary({ status: 'streaming', usage: null, endedAt: null, costUsd: null });
    socket.deliver({ type: 'exchange/started', seq: 3, exchange: { ...b, status: 'streaming', usage: null, endedAt: null } });
    socket.deliver({ type: 'usage/updated', seq: 4, usage: fakeLiveUsage({ today: { codexTokensUsed: 1000 } }) });
    socket.deliver({ type: 'exchange/completed', seq: 5, exchange: b });
    socket.deliver({ type: 'exchange/started', seq: 6, exchange: c });
    socket.deliver({ type: 'exchange/progress', seq: 7, id: c.id, events: 3, outputChars: 12, estimatedOutputTokens: 3 });
    // Nothing is applied before the snapshot.
    expect(ids()).toEqual([a.id]);
    socket.deliver(fakeSnapshot(8, [b, a], { usage: fakeLiveUsage({ today: { codexTokensUsed: 2000 } }) }));
    expect(ids()).toEqual([c.id, b.id, a.id]);
    expect(useExchangesStore().get(b.id)?.status).toBe('completed');
    expect(useExchangesStore().get(c.id)?.status).toBe('streaming');
    expect(useExchangesStore().progress.get(c.id)?.events).toBe(3);
    // The snapshot's totals are newer than the queued ones.
    expect(useUsageStore().today?.codexTokensUsed).toBe(2000);
    // Live messages after the snapshot apply directly.
    socket.deliver({ type: 'exchange/completed', seq: 9, exchange: { ...c, status: 'completed', endedAt: c.startedAt + 500 } });
    expect(useExchangesStore().get(c.id)?.status).toBe('completed');
    expect(resyncs(socket)).toBe(1);
  });

  it('never lets a replayed "started" turn a finished exchange of the snapshot back into a streaming one', async () => {
    const { socket } = await connect();
    socket.deliver(fakeSnapshot(1, []));
    socket.deliver({ type: 'feed/reset', seq: 2, reason: 'history cleared' });
    const b = fakeSummary();
    socket.deliver({ type: 'exchange/started', seq: 3, exchange: { ...b, status: 'streaming', usage: null, endedAt: null } });
    socket.deliver(fakeSnapshot(4, [b]));
    expect(useExchangesStore().get(b.id)?.status).toBe('completed');
  });

  it('asks for feed/resync when a sequence number is skipped, and accepts the snapshot that follows', async () => {
    const { socket, connection } = await connect();
    socket.deliver(fakeSnapshot(1, []));
    socket.deliver({ type: 'usage/updated', seq: 2, usage: fakeLiveUsage() });
    expect(resyncs(socket)).toBe(0);
    const lost = fakeSummary();
    socket.deliver({ type: 'exchange/started', seq: 5, exchange: { ...lost, status: 'streaming', usage: null, endedAt: null } });
    expect(resyncs(socket)).toBe(1);
    expect(connection.snapshotPending).toBe(true);
    socket.deliver({ type: 'usage/updated', seq: 6, usage: fakeLiveUsage() });
    expect(resyncs(socket)).toBe(1);
    socket.deliver(fakeSnapshot(7, [lost]));
    expect(connection.snapshotPending).toBe(false);
    expect(connection.lastSeq).toBe(7);
    expect(ids()).toEqual([lost.id]);
    socket.deliver({ type: 'usage/updated', seq: 8, usage: fakeLiveUsage() });
    expect(resyncs(socket)).toBe(1);
  });

  it('loads a fresh snapshot after feed/reset, dropping what the companion deleted', async () => {
    const { socket } = await connect();
    socket.deliver(fakeSnapshot(1, [fakeSummary(), fakeSummary()]));
    socket.deliver({ type: 'feed/reset', seq: 2, reason: 'history cleared' });
    expect(socket.sent.at(-1)).toEqual({ type: 'feed/resync' });
    socket.deliver(fakeSnapshot(3, []));
    expect(ids()).toEqual([]);
  });

  it('says which side to update on a protocol mismatch, and stops retrying', async () => {
    vi.useFakeTimers();
    const { socket, connection, conns } = await connect();
    socket.deliver({
      type: 'feed/error',
      code: 'protocol_mismatch',
      message: 'the extension speaks protocol 1 and the companion 2: update the extension',
      update: 'extension',
    });
    socket.drop(4426, 'protocol mismatch');
    expect(connection.status).toBe('mismatch');
    expect(connection.problem?.update).toBe('extension');
    vi.advanceTimersByTime(60_000);
    expect(conns.sockets).toHaveLength(1);
  });

  it('says the token was refused, and waits for a new pairing before connecting again', async () => {
    vi.useFakeTimers();
    const { socket, connection, conns } = await connect();
    socket.deliver({ type: 'feed/error', code: 'unauthorized', message: 'wrong pairing token' });
    socket.drop(4401, 'wrong pairing token');
    expect(connection.status).toBe('unauthorized');
    vi.advanceTimersByTime(60_000);
    expect(conns.sockets).toHaveLength(1);
    await useSettingsStore().pair({ port: 8642, token: 'a-new-token-0123456789' });
    await Promise.resolve();
    expect(conns.sockets).toHaveLength(2);
    conns.latest().accept();
    expect(conns.latest().sent[0]).toMatchObject({ type: 'hello', token: 'a-new-token-0123456789' });
  });

  it('shows offline since when, with the close code and reason, and retries with a capped backoff', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 10, 29, 12, 0, 0));
    const { socket, connection, conns } = await connect();
    socket.deliver(fakeSnapshot(1, []));
    socket.drop(1006, 'connection lost');
    expect(connection.status).toBe('offline');
    expect(connection.offlineSince).toBe(Date.UTC(2026, 10, 29, 12, 0, 0));
    expect(connection.close).toMatchObject({ code: 1006, reason: 'connection lost' });
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = conns.sockets.length;
      const start = Date.now();
      while (conns.sockets.length === before) vi.advanceTimersByTime(100);
      delays.push(Date.now() - start);
      conns.latest().drop(1006, '');
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    // Still offline since the first failure, not the latest.
    expect(connection.offlineSince).toBe(Date.UTC(2026, 10, 29, 12, 0, 0));
  });

  it('rejects and counts a message of an unknown type without crashing or applying it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { socket, connection } = await connect();
    socket.deliver(fakeSnapshot(1, []));
    socket.deliver({ type: 'exchange/exploded', seq: 2 });
    socket.deliver('not json at all');
    expect(connection.rejected).toBe(2);
    expect(connection.lastRejection?.error).toBe('not JSON');
    expect(connection.status).toBe('connected');
    expect(warn).toHaveBeenCalledTimes(1);
    // The rejected frame did not consume a sequence number.
    socket.deliver({ type: 'usage/updated', seq: 2, usage: fakeLiveUsage({ today: { codexTokensUsed: 7 } }) });
    expect(useUsageStore().today?.codexTokensUsed).toBe(7);
  });

  it('opens no socket and says "not paired" without a token', async () => {
    const conns = fakeConnections();
    const connection = useConnectionStore();
    connection.start({ connect: conns.connect, scope: 'usage' });
    expect(conns.sockets).toHaveLength(0);
    expect(connection.status).toBe('unpaired');
  });

  it('keeps usage totals and rate limits from the feed for the popup', async () => {
    const { socket } = await connect('usage');
    socket.deliver(
      fakeSnapshot(1, [], { usage: fakeLiveUsage({ session: { sessionId: 's-9', usage: fakeRollup({ codexTokensUsed: 1956 }) } }) }),
    );
    expect(useUsageStore().session?.usage.codexTokensUsed).toBe(1956);
    expect(useUsageStore().rateLimits).toBeNull();
    socket.deliver({
      type: 'ratelimits/updated',
      seq: 2,
      rateLimits: fakeRateLimits(85, null),
    });
    expect(useUsageStore().highestLimit).toBe(85);
  });
});
