import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion } from '../support/companion';
import { encodeSse, message, response } from '../support/sse';
import { openRequest, rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';
import { freePort } from '../support/ports';

const KEY = fakeKey('proj-failuretest-abcdefghijklmnop');
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

describe('forwarding when things go wrong', () => {
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('fine')]) }) });
  });
  afterAll(() => upstream.close());

  it('answers an unreachable upstream with a 502 in OpenAI error shape naming the companion and the upstream, never the key', async () => {
    const port = await freePort();
    const c = await startTestCompanion({ apiUpstream: `http://127.0.0.1:${port}/v1` });
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: '{"model":"gpt-5-codex"}' });
      expect(res.status).toBe(502);
      const body = JSON.parse(res.body.toString());
      expect(body.error.type).toBe('upstream_unreachable');
      expect(body.error.message).toContain('codex-devtools');
      expect(body.error.message).toContain(`http://127.0.0.1:${port}/v1`);
      expect(res.body.toString()).not.toContain(KEY.slice(-8));
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s).toMatchObject({ status: 'upstream_error', codexCounted: false });
      expect(s.error?.code).toBe('upstream_unreachable');
    } finally {
      await c.dispose();
    }
  });

  it('says the upstream closed the connection, not that it could not be reached, when it accepts and then closes', async () => {
    const closing = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => closing.listen(0, '127.0.0.1', r));
    const port = (closing.address() as net.AddressInfo).port;
    const c = await startTestCompanion({ apiUpstream: `http://127.0.0.1:${port}/v1` });
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: '{"model":"gpt-5-codex"}' });
      expect(res.status).toBe(502);
      const body = JSON.parse(res.body.toString());
      expect(body.error.type).toBe('upstream_closed');
      expect(body.error.message).toContain('closed the connection before answering');
      expect(body.error.message).not.toContain('could not reach');
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s).toMatchObject({ status: 'upstream_error', codexCounted: false, error: { code: 'upstream_closed' } });
    } finally {
      await c.dispose();
      await new Promise((r) => closing.close(r));
    }
  });

  it('answers an upstream that never responds with a 504 once the timeout passes', async () => {
    const hanging = await startFakeUpstream({ scenario: () => ({ kind: 'hang' }) });
    const c = await startTestCompanion({ apiUpstream: hanging.baseUrl, timeouts: { headersTimeoutMs: 300 } });
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: '{}' });
      expect(res.status).toBe(504);
      expect(JSON.parse(res.body.toString()).error.type).toBe('upstream_timeout');
      await c.idle();
      expect((await c.store.list({})).items[0]).toMatchObject({ status: 'upstream_error', error: { code: 'upstream_timeout' } });
    } finally {
      await c.dispose();
      await hanging.close();
    }
  });

  it('cuts a response the upstream falls silent on for longer than the body timeout, and records why', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const silent = await startFakeUpstream({
      scenario: () => ({
        kind: 'sse',
        events: response([message('stalls')]),
        chunking: 'per-event',
        hold: { beforeChunk: 2, until: held },
      }),
    });
    const c = await startTestCompanion({ apiUpstream: silent.baseUrl, timeouts: { bodyTimeoutMs: 300 } });
    try {
      const { res } = await openRequest(`${c.url}/v1/responses`, { headers: auth, body: '{}' });
      res.on('error', () => {}); // the cut arrives as an error on Codex's side
      res.resume();
      await new Promise((r) => res.on('close', r));
      expect(res.complete).toBe(false);
      await expect.poll(() => silent.requests[0]?.aborted, { timeout: 5000 }).toBe(true);
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s).toMatchObject({ status: 'failed', error: { code: 'stream_truncated' } });
      expect(s.error?.message).toContain('no body bytes within 300 ms');
    } finally {
      release();
      await c.dispose();
      await silent.close();
    }
  });

  it('cancels the upstream request when Codex goes away while still sending its body, and records the exchange as aborted', async () => {
    let received = 0;
    let upstreamCut!: () => void;
    const cut = new Promise<void>((r) => (upstreamCut = r));
    // Answers only once the whole body is in, which never happens here.
    const slow = http.createServer((req, res) => {
      req.on('data', (d: Buffer) => (received += d.length));
      req.on('close', () => !req.complete && upstreamCut());
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const c = await startTestCompanion({ apiUpstream: `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/v1` });
    try {
      const req = http.request(`${c.url}/v1/responses`, { method: 'POST', headers: { ...auth, 'content-length': '100000' } });
      req.on('error', () => {});
      req.write(Buffer.alloc(1000, 'a'));
      // The first part of the body is upstream before the rest exists: it streams, it is not held.
      await expect.poll(() => received, { timeout: 5000 }).toBe(1000);
      req.destroy();
      await cut;
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s).toMatchObject({ status: 'aborted', error: { code: 'client_aborted' } });
    } finally {
      await c.dispose();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('passes a response through in full when the capture queue is full, and marks its capture incomplete', async () => {
    const big = encodeSse(response([message('z'.repeat(50_000), { pieces: 50 })]));
    upstream.setScenario(() => ({ kind: 'raw', chunks: [big.slice(0, 40_000), big.slice(40_000)] }));
    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl, captureQueueBytes: 1000 });
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: '{}' });
      expect(res.body.toString()).toBe(big);
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s.captureComplete).toBe(false);
      expect(s.error?.code).toBe('capture_incomplete');
      expect(c.captureStats().droppedChunks).toBeGreaterThan(0);
    } finally {
      await c.dispose();
    }
  });

  it('records a valid non-streamed reply larger than the capture limit as completed, its capture incomplete', async () => {
    const reply = { id: 'resp_big', object: 'response', status: 'completed', output: [{ type: 'message', text: 'y'.repeat(300_000) }] };
    upstream.setScenario(() => ({ kind: 'json', body: reply }));
    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl, maxCaptureBytes: 100_000 });
    try {
      const res = await rawRequest(`${c.url}/v1/responses/compact`, { method: 'POST', headers: auth, body: '{"model":"gpt-5-codex"}' });
      expect(JSON.parse(res.body.toString())).toEqual(reply);
      await c.idle();
      const [s] = (await c.store.list({})).items;
      expect(s).toMatchObject({ kind: 'model', status: 'completed', error: null, captureComplete: false });
      const record = await c.store.get(s.id);
      expect(record?.captureErrors.join(' ')).toContain('larger than the capture limit of 100000 bytes');
      expect(record?.usage ?? null).toBeNull();
    } finally {
      await c.dispose();
    }
  });

  it('keeps forwarding unchanged when a capture addon throws, and reports the failure', async () => {
    const sse = encodeSse(response([message('still fine')]));
    upstream.setScenario(() => ({ kind: 'raw', chunks: [sse] }));
    const c = await startTestCompanion({
      apiUpstream: upstream.baseUrl,
      captureAddons: [new URL('../support/addons/exploding.ts', import.meta.url).href],
    });
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: '{}' });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(sse);
      await c.idle();
      expect(c.captureStats().addonFailures.exploding).toBeGreaterThan(2);
      expect((await c.store.list({})).items[0].status).toBe('completed');
    } finally {
      await c.dispose();
    }
  });

  it('answers a WebSocket upgrade on the Responses path with 426 so Codex falls back to HTTP', async () => {
    const c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    try {
      const reply = await new Promise<string>((resolve) => {
        const s = net.connect(c.port, '127.0.0.1', () =>
          s.write(
            `GET /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:${c.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
          ),
        );
        let data = '';
        s.on('data', (d) => (data += d));
        s.on('close', () => resolve(data));
      });
      expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 426 Upgrade Required');
    } finally {
      await c.dispose();
    }
  });
});
