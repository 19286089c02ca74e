import net from 'node:net';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';
import { PROTOCOL_VERSION } from '../../companion/protocol/version';
import { MAX_SUBSCRIPTIONS } from '../../companion/live/hub';
import { fakeKey } from '../support/keys';

const EXT = 'chrome-extension://dceflbcgefibjiafpacongiijjkjedae';
const META = JSON.stringify({
  session_id: 's-live',
  thread_id: 't-live',
  turn_id: 'turn-1',
  request_kind: 'turn',
  thread_source: 'user',
  agent_name: '/root',
});

describe('the live feed', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  let release: () => void = () => {};
  const codex = () =>
    rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fakeKey('test-live-0123456789')}`,
        'session-id': 's-live',
        'thread-id': 't-live',
        'x-codex-turn-metadata': META,
      },
      body: JSON.stringify({ model: 'gpt-5-codex', input: [] }),
    });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setScenario(() => {
      const held = new Promise<void>((r) => (release = r));
      return {
        kind: 'sse',
        events: response([message('Live text arrives in pieces.', { pieces: 6 })]),
        chunking: 'per-event',
        hold: { beforeChunk: 6, until: held },
      };
    });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl, hub: { helloTimeoutMs: 300, heartbeatMs: 200, progressIntervalMs: 50 } });
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('closes a connection that sends no hello in time, saying why', async () => {
    const feed = await openFeed(c.url, { hello: null, origin: EXT });
    expect(await feed.waitFor('feed/error')).toMatchObject({ code: 'hello_timeout' });
    expect((await feed.closed).code).toBe(4408);
  });

  it('counts as live clients only the sockets that said hello', async () => {
    const liveClients = async () =>
      JSON.parse((await rawRequest(`${c.url}/api/status`, { headers: { authorization: `Bearer ${c.token()}` } })).body.toString())
        .liveClients;
    const silent = await openFeed(c.url, { hello: null, origin: EXT });
    expect(await liveClients()).toBe(0);
    const paired = await openFeed(c.url, { token: c.token(), origin: EXT });
    await paired.waitFor('feed/snapshot');
    expect(await liveClients()).toBe(1);
    silent.close();
    paired.close();
    await Promise.all([silent.closed, paired.closed]);
  });

  it('refuses a wrong token', async () => {
    const feed = await openFeed(c.url, { token: 'wrong' });
    expect(await feed.waitFor('feed/error')).toMatchObject({ code: 'unauthorized' });
    expect((await feed.closed).code).toBe(4401);
  });

  it('says which side to update when protocol versions differ', async () => {
    const old = await openFeed(c.url, { hello: { type: 'hello', token: c.token(), protocol: PROTOCOL_VERSION - 1 } });
    expect(await old.waitFor('feed/error')).toMatchObject({ code: 'protocol_mismatch', update: 'extension' });
    const newer = await openFeed(c.url, { hello: { type: 'hello', token: c.token(), protocol: PROTOCOL_VERSION + 1 } });
    expect(await newer.waitFor('feed/error')).toMatchObject({ code: 'protocol_mismatch', update: 'companion' });
    expect((await newer.closed).code).toBe(4426);
  });

  it('refuses an upgrade from a web page origin', async () => {
    await expect(openFeed(c.url, { origin: 'https://evil.example', token: c.token() })).rejects.toMatchObject({ status: 403 });
  });

  it('answers a malformed message with an error and keeps the connection', async () => {
    const feed = await openFeed(c.url, { token: c.token(), origin: EXT });
    await feed.waitFor('feed/snapshot');
    feed.send('{not json');
    feed.send({ type: 'exchange/explode' });
    feed.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await expect.poll(() => feed.messages.filter((m) => m.type === 'feed/error').length).toBe(3);
    feed.send({ type: 'feed/resync' });
    await expect.poll(() => feed.messages.filter((m) => m.type === 'feed/snapshot').length).toBe(2);
    expect(feed.invalid).toEqual([]);
    feed.close();
  });

  it('prepares at most one snapshot at a time for a client that asks for many while it cannot take them', async () => {
    let companionSide: WebSocket | null = null;
    const attach = c.hub.attach.bind(c.hub);
    c.hub.attach = (ws, req) => {
      companionSide = ws;
      attach(ws, req);
    };
    try {
      const feed = await openFeed(c.url, { token: c.token(), origin: EXT });
      await feed.waitFor('feed/snapshot');
      // The companion's side of the socket looks full, as with a client that stopped reading.
      const side = companionSide!;
      let stalled = true;
      const real = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(side), 'bufferedAmount')!.get!;
      Object.defineProperty(side, 'bufferedAmount', { get: () => (stalled ? 1 << 30 : (real.call(side) as number)) });
      let arrived = 0;
      const allArrived = new Promise<void>((resolve) => side.on('message', () => ++arrived === 500 && resolve()));
      for (let i = 0; i < 500; i++) feed.send({ type: 'feed/resync' });
      await allArrived;
      stalled = false;
      feed.send('{not json'); // answered after everything queued before it
      await feed.waitFor('feed/error');
      expect(feed.messages.filter((m) => m.type === 'feed/snapshot')).toHaveLength(2);
      expect(feed.messages.filter((m) => m.type === 'feed/reset')).toEqual([]);
      feed.close();
    } finally {
      c.hub.attach = attach;
    }
  });

  it('bounds the subscriptions of one client, refusing those past the limit and keeping the connection', async () => {
    const feed = await openFeed(c.url, { token: c.token(), origin: EXT });
    await feed.waitFor('feed/snapshot');
    const errors = () => feed.messages.filter((m) => m.type === 'feed/error');
    const snapshots = () => feed.messages.filter((m) => m.type === 'feed/snapshot').length;
    for (let i = 0; i < 40; i++) feed.send({ type: 'exchange/subscribe', id: `ex-${i}` });
    feed.send({ type: 'exchange/subscribe', id: 'ex-0' }); // already subscribed: no new one
    feed.send({ type: 'feed/resync' });
    await expect.poll(snapshots).toBe(2);
    expect(errors()).toHaveLength(40 - MAX_SUBSCRIPTIONS);
    expect(errors()[0]).toMatchObject({ code: 'bad_message', message: expect.stringMatching(/subscriptions/) });
    feed.send({ type: 'exchange/unsubscribe', id: 'ex-1' });
    feed.send({ type: 'exchange/subscribe', id: 'ex-new' });
    feed.send({ type: 'exchange/subscribe', id: 'x'.repeat(200) });
    feed.send({ type: 'feed/resync' });
    await expect.poll(snapshots).toBe(3);
    expect(errors()).toHaveLength(40 - MAX_SUBSCRIPTIONS + 1);
    expect(feed.ws.readyState).toBe(feed.ws.OPEN);
    feed.close();
  });

  it('sends a snapshot, then started, progress with item text for subscribers only, and completed, in sequence', async () => {
    const subscriber = await openFeed(c.url, { token: c.token(), origin: EXT });
    const watcher = await openFeed(c.url, { token: c.token() });
    const popup = await openFeed(c.url, { token: c.token(), scope: 'usage' });
    await Promise.all([subscriber.waitFor('feed/snapshot'), watcher.waitFor('feed/snapshot'), popup.waitFor('feed/snapshot')]);
    const before = upstream.requests.length;
    const done = codex();
    const started = await subscriber.waitFor('exchange/started');
    await expect.poll(() => upstream.requests.length).toBe(before + 1);
    expect(started.exchange).toMatchObject({ status: 'streaming', sessionId: 's-live', threadId: 't-live', agent: { role: 'main' } });
    subscriber.send({ type: 'exchange/subscribe', id: started.exchange.id });
    await subscriber.waitFor('exchange/progress', (m) => (m.items ?? []).some((i) => i.delta.length > 0));
    release();
    await done;
    const completed = await subscriber.waitFor('exchange/completed');
    expect(completed.exchange).toMatchObject({ id: started.exchange.id, status: 'completed', usage: { outputTokens: 12 } });
    const text = subscriber.messages
      .flatMap((m) => (m.type === 'exchange/progress' ? (m.items ?? []).filter((i) => i.kind === 'message').map((i) => i.delta) : []))
      .join('');
    expect(text).toBe('Live text arrives in pieces.');
    const lastProgress = subscriber.messages.filter((m) => m.type === 'exchange/progress').at(-1) as any;
    expect(lastProgress.estimatedOutputTokens).toBeGreaterThan(0);
    await watcher.waitFor('exchange/completed');
    expect(watcher.messages.some((m) => m.type === 'exchange/progress')).toBe(true);
    expect(watcher.messages.some((m) => m.type === 'exchange/progress' && m.items !== undefined)).toBe(false);
    const usage = await popup.waitFor('usage/updated');
    expect(usage.usage.session).toMatchObject({ sessionId: 's-live' });
    expect(usage.usage.session!.usage.codexTokensUsed).toBeGreaterThan(0);
    expect(popup.messages.some((m) => m.type.startsWith('exchange/'))).toBe(false);
    for (const f of [subscriber, watcher, popup]) {
      const seqs = f.messages.flatMap((m) => ('seq' in m ? [m.seq] : []));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(f.invalid).toEqual([]);
      f.close();
    }
  });

  it('includes an exchange still streaming in the snapshot, and serves its record so far', async () => {
    const before = upstream.requests.length;
    const done = codex();
    await expect.poll(() => upstream.requests.length).toBe(before + 1);
    // Its row is in the store from its start; a mutation refreshes the snapshot's mirror from there.
    await expect.poll(async () => (await c.store.list({ limit: 1 })).items[0]?.status).toBe('streaming');
    await c.store.prune();
    const late = await openFeed(c.url, { token: c.token() });
    const snapshot = await late.waitFor('feed/snapshot');
    const streaming = snapshot.exchanges.find((e) => e.status === 'streaming');
    expect(streaming).toMatchObject({ sessionId: 's-live', threadId: 't-live' });
    expect(snapshot.exchanges.filter((e) => e.id === streaming!.id)).toHaveLength(1);
    const res = await rawRequest(`${c.url}/api/exchanges/${streaming!.id}`, { headers: { authorization: `Bearer ${c.token()}` } });
    expect(res.status).toBe(200);
    const partial = JSON.parse(res.body.toString());
    expect(partial.status).toBe('streaming');
    expect(partial.response.events.length).toBeGreaterThan(0);
    release();
    await done;
    expect((await late.waitFor('exchange/completed')).exchange.id).toBe(streaming!.id);
    late.close();
  });

  it('sends heartbeats to keep an idle connection alive', async () => {
    const feed = await openFeed(c.url, { token: c.token() });
    await feed.waitFor('feed/heartbeat');
    feed.close();
  });

  it('does not let a stalled client delay what another client receives, and resets the stalled one', async () => {
    // A client that completes the handshake and hello, then never reads again.
    const stalled = await openFeed(c.url, { token: c.token() });
    await stalled.waitFor('feed/snapshot');
    (stalled.ws as any)._socket.pause();
    const healthy = await openFeed(c.url, { token: c.token() });
    await healthy.waitFor('feed/snapshot');
    // Steady heavy traffic (16 MB over ~0.5 s): a reading client keeps up, the stalled one cannot.
    const big = { ...(await healthy.waitFor('feed/snapshot')).profile, name: 'x'.repeat(256 * 1024) };
    for (let batch = 0; batch < 16; batch++) {
      for (let i = 0; i < 4; i++) c.hub.profileChanged(big);
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(healthy.messages.filter((m) => m.type === 'feed/reset')).toEqual([]);
    const t0 = Date.now();
    const before = upstream.requests.length;
    const done = codex();
    await healthy.waitFor('exchange/started', undefined, 5000);
    await expect.poll(() => upstream.requests.length).toBe(before + 1); // the held response exists now
    release();
    await done;
    await healthy.waitFor('exchange/completed', undefined, 5000);
    expect(Date.now() - t0).toBeLessThan(5000);
    (stalled.ws as any)._socket.resume();
    await stalled.waitFor('feed/reset', undefined, 10_000);
    healthy.close();
    stalled.close();
  });

  it('lets only loopback Host names open the feed', async () => {
    const reply = await new Promise<string>((resolve) => {
      const s = net.connect(c.port, '127.0.0.1', () =>
        s.write(
          `GET /api/live HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
      let d = '';
      s.on('data', (x) => (d += x));
      s.on('close', () => resolve(d));
    });
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 421 Misdirected Request');
  });
});

describe('live progress of text that looks like a special token', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // Model output about tokenizers: plain text to the companion, never a control token.
    upstream.setScenario(() => ({
      kind: 'sse',
      events: response([message('A document ends with <|endoftext|> in GPT tokenizers.', { pieces: 4 })]),
      chunking: 'per-event',
    }));
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl, hub: { progressIntervalMs: 10 } });
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('counts it as plain text and keeps the companion running', async () => {
    const feed = await openFeed(c.url, { token: c.token(), origin: EXT });
    await feed.waitFor('feed/snapshot');
    const res = await rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('test-live-0123456789')}`, 'x-codex-turn-metadata': META },
      body: JSON.stringify({ model: 'gpt-5-codex', input: [] }),
    });
    expect(res.status).toBe(200);
    await feed.waitFor('exchange/completed');
    const progress = feed.messages.filter((m) => m.type === 'exchange/progress').at(-1) as any;
    expect(progress.estimatedOutputTokens).toBeGreaterThan(0);
    expect((await rawRequest(`${c.url}/api/health`, { headers: { authorization: `Bearer ${c.token()}` } })).status).toBe(200);
    feed.close();
  });
});
