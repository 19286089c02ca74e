import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { encodeSse, message, response } from '../support/sse';
import { nextChunk, openRequest, rawRequest } from '../support/http';
import { loadFixture } from '../support/fixtures';
import { fakeKey } from '../support/keys';

const KEY = fakeKey('proj-forwardtest-abcdefghijklmnop');

describe('forwarding through the companion', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
  });
  afterEach(() => {
    upstream.requests.length = 0;
  });
  afterAll(async () => {
    await companion.dispose();
    await upstream.close();
  });

  it('sends method, path, query, headers and the body byte for byte', async () => {
    upstream.setScenario(() => ({ kind: 'sse', events: response([message('ok')]) }));
    const f = loadFixture('a-plain-text-1');
    const body = Buffer.from(JSON.stringify(f.request.body));
    const res = await rawRequest(`${companion.url}/v1/responses?api-version=2026-01-01`, {
      method: 'POST',
      headers: {
        ...f.request.headers,
        authorization: `Bearer ${KEY}`,
        'content-length': String(body.length),
        connection: 'keep-alive, x-hop',
        'x-hop': 'drop me',
        'keep-alive': 'timeout=5',
      },
      body,
    });
    expect(res.status).toBe(200);
    const [got] = upstream.requests;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/v1/responses?api-version=2026-01-01');
    expect(got.raw.equals(body)).toBe(true);
    expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(got.headers['x-codex-turn-metadata']).toBe(f.request.headers['x-codex-turn-metadata']);
    expect(got.headers['session-id']).toBe(f.request.headers['session-id']);
    expect(got.headers['x-hop']).toBeUndefined();
    expect(got.headers['keep-alive']).toBeUndefined();
    expect(got.headers.host).toBe(`127.0.0.1:${upstream.port}`);
  });

  it('sends a zstd-compressed body unchanged and records it decoded', async () => {
    upstream.setScenario(() => ({ kind: 'sse', events: response([message('ok')]) }));
    const json = JSON.stringify({
      model: 'gpt-5-codex',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'zstd ✓' }] }],
    });
    // A real zstd frame made by the zstd CLI from `json` (Node 20 cannot compress zstd).
    const { execFileSync } = await import('node:child_process');
    const zstd = execFileSync('zstd', ['-q', '-c', '-'], { input: json });
    const res = await rawRequest(`${companion.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd', authorization: `Bearer ${KEY}` },
      body: zstd,
    });
    expect(res.status).toBe(200);
    expect(upstream.requests[0].raw.equals(zstd)).toBe(true);
    expect(upstream.requests[0].headers['content-encoding']).toBe('zstd');
    await companion.idle();
    const [summary] = (await companion.store.list({ limit: 1 })).items;
    const record = await companion.store.get(summary.id);
    expect(record?.request.bodyEncoding).toBe('zstd');
    expect(record?.request.bodyBytes).toBe(zstd.length);
    expect((record?.request.body as any).input[0].content[0].text).toBe('zstd ✓');
  });

  it('returns the upstream status, headers and body bytes unchanged, compressed ones included', async () => {
    const payload = zlib.gzipSync(Buffer.from(JSON.stringify({ object: 'list', data: [{ id: 'gpt-5-codex' }] })));
    upstream.setScenario(() => ({
      kind: 'raw',
      status: 203,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-request-id': 'req_1' },
      chunks: [payload],
    }));
    const res = await rawRequest(`${companion.url}/v1/models?client_version=0.169.0`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(203);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['x-request-id']).toBe('req_1');
    expect(res.body.equals(payload)).toBe(true);
    await companion.idle();
    const [summary] = (await companion.store.list({ limit: 1 })).items;
    expect(summary).toMatchObject({ kind: 'other', path: '/v1/models', codexCounted: false, status: 'completed' });
    const record = await companion.store.get(summary.id);
    expect(record?.response.body).toEqual({ object: 'list', data: [{ id: 'gpt-5-codex' }] });
  });

  it('streams each event to Codex as it arrives, before the upstream has finished', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    upstream.setScenario(() => ({
      kind: 'sse',
      events: response([message('streamed')]),
      chunking: 'per-event',
      hold: { beforeChunk: 3, until: held },
    }));
    const { res } = await openRequest(`${companion.url}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` }, body: '{}' });
    let seen = '';
    while (!seen.includes('response.output_item.added')) seen += (await nextChunk(res)).toString();
    expect(seen).toContain('response.created');
    expect(seen).not.toContain('response.completed');
    // Its row is written when it starts (a crash leaves it aborted with what was captured), still streaming.
    await expect.poll(async () => (await companion.store.list({ limit: 1 })).items[0]?.status).toBe('streaming');
    release();
    res.resume();
    await new Promise((r) => res.on('end', r));
  });

  it('respects backpressure: a Codex that stops reading stops the upstream read', async () => {
    const chunk = Buffer.from(encodeSse([{ type: 'response.output_text.delta', delta: 'x'.repeat(16 * 1024) }]));
    const total = 40 * 1024 * 1024;
    upstream.setScenario(() => ({
      kind: 'raw',
      awaitDrain: true,
      chunks: function* () {
        for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
      },
    }));
    const { res } = await openRequest(`${companion.url}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` }, body: '{}' });
    res.pause();
    await new Promise((r) => setTimeout(r, 1000));
    const written = upstream.requests[0].bytesWritten;
    // Loopback socket buffers on both hops hold about 8 MB; without backpressure all 40 MB would be read.
    expect(written).toBeLessThan(12 * 1024 * 1024);
    let received = 0;
    res.on('data', (c: Buffer) => (received += c.length));
    res.resume();
    await new Promise((r) => res.on('end', r));
    expect(received).toBe(upstream.requests[0].bytesWritten);
    expect(received).toBeGreaterThanOrEqual(total);
  });

  it('cancels the upstream request when Codex disconnects, and records the exchange as aborted', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    upstream.setScenario(() => ({
      kind: 'sse',
      events: response([message('never finished')]),
      chunking: 'per-event',
      hold: { beforeChunk: 4, until: held },
    }));
    const { res, req } = await openRequest(`${companion.url}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` }, body: '{}' });
    await nextChunk(res);
    req.destroy();
    await expect.poll(() => upstream.requests[0].aborted, { timeout: 5000 }).toBe(true);
    release();
    await companion.idle();
    const [summary] = (await companion.store.list({ limit: 1 })).items;
    expect(summary.status).toBe('aborted');
    expect(summary.error?.code).toBe('client_aborted');
    const record = await companion.store.get(summary.id);
    expect(record?.response.events.length).toBeGreaterThan(0);
  });

  it('forwards a body larger than the capture limit intact and says why it was not captured', async () => {
    const small = await startTestCompanion({ apiUpstream: upstream.baseUrl, maxCaptureBytes: 1024 });
    try {
      upstream.setScenario(() => ({ kind: 'sse', events: response([message('big')]) }));
      const big = Buffer.from(
        JSON.stringify({
          model: 'm',
          input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'y'.repeat(20 * 1024 * 1024) }] }],
        }),
      );
      const res = await rawRequest(`${small.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: big });
      expect(res.status).toBe(200);
      expect(upstream.requests[0].raw.equals(big)).toBe(true);
      await small.idle();
      const record = await small.store.get((await small.store.list({})).items[0].id);
      expect(record?.request.bodyNote).toMatch(/exceed the capture limit of 1024/);
      expect(record?.status).toBe('completed');
    } finally {
      await small.dispose();
    }
  });
});
