/**
 * Byte-exactness of forwarding, measured against the upstream itself: each response is fetched
 * straight from the fake upstream and through the companion, and Codex must see the same
 * status, the same header lines in the same order (apart from those Node writes for each
 * connection: date, connection, keep-alive, transfer-encoding) and the same body bytes.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type Plan } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { encodeSse, message, response } from '../support/sse';
import { fakeKey } from '../support/keys';

const KEY = fakeKey('proj-exactness-abcdefghijklmnop');
const NODE_OWNED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Seen {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** Whether the response ended cleanly (false: the connection broke mid-body). */
  complete: boolean;
}

/** One request on its own connection; collects what Codex's HTTP client would see. */
function fetchRaw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? 'POST', headers: { authorization: `Bearer ${KEY}`, ...opts.headers }, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (!NODE_OWNED.has(res.rawHeaders[i].toLowerCase())) headers.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        let done = false;
        const finish = (complete: boolean) => {
          if (done) return;
          done = true;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(parts), complete });
        };
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => finish(true));
        res.on('error', () => finish(false));
        res.on('aborted', () => finish(false));
        res.on('close', () => finish(res.complete));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('forwarding is byte-exact against the upstream itself', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl });
  });
  afterAll(async () => {
    await companion.dispose();
    await upstream.close();
  });

  /** The same plan, fetched direct and via the companion. */
  async function both(plan: Plan, path = '/responses', opts: Parameters<typeof fetchRaw>[1] = {}): Promise<{ direct: Seen; via: Seen }> {
    upstream.setScenario(() => plan);
    const direct = await fetchRaw(`${upstream.baseUrl}${path}`, opts);
    const via = await fetchRaw(`${companion.url}/v1${path}`, opts);
    return { direct, via };
  }

  function expectSame({ direct, via }: { direct: Seen; via: Seen }) {
    expect(via.status).toBe(direct.status);
    expect(via.headers).toEqual(direct.headers);
    expect(via.body.length).toBe(direct.body.length);
    expect(via.body.equals(direct.body)).toBe(true);
    expect(via.complete).toBe(direct.complete);
  }

  const sse = (chunks: (string | Buffer)[], extra: [string, string][] = []): Plan => ({
    kind: 'exact',
    status: 200,
    headers: [['content-type', 'text/event-stream'], ['x-request-id', 'req_exact'], ...extra],
    chunks,
  });

  it('passes LF, CRLF and CR-only event streams unchanged', async () => {
    const lf = encodeSse(response([message('line endings')]));
    for (const body of [lf, lf.replace(/\n/g, '\r\n'), lf.replace(/\n/g, '\r')]) {
      const r = await both(sse([body.slice(0, 37), body.slice(37, 200), body.slice(200)]));
      expectSame(r);
      expect(r.via.body.toString()).toBe(body);
    }
  });

  it('passes UTF-8 characters split across chunks unchanged, and captures them whole', async () => {
    const body = Buffer.from(encodeSse(response([message('é 😀 中文 done')])));
    const at = body.indexOf(Buffer.from('😀')) + 2; // inside the four bytes of the emoji
    const r = await both(sse([body.subarray(0, at), body.subarray(at, at + 1), body.subarray(at + 1)]));
    expectSame(r);
    await companion.idle();
    const [s] = (await companion.store.list({ limit: 1 })).items;
    expect(s.preview).toBe('é 😀 中文 done');
  });

  it('passes a bare `event: error` and a stream cut mid-event as they came', async () => {
    expectSame(await both(sse(['event: error\n\n'])));
    const body = encodeSse(response([message('cut short')]));
    const r = await both({ ...(sse([body.slice(0, 150)]) as Extract<Plan, { kind: 'exact' }>), cut: true });
    expectSame(r);
    expect(r.via.complete).toBe(false);
    await companion.idle();
    const [s] = (await companion.store.list({ limit: 1 })).items;
    expect(s).toMatchObject({ status: 'failed', error: { code: 'stream_truncated' } });
  });

  it('passes a 50 MB stream unchanged', async () => {
    const chunk = Buffer.from(encodeSse([{ type: 'response.output_text.delta', delta: 'y'.repeat(64 * 1024 - 80) }]));
    const chunks = Array.from({ length: Math.ceil(50e6 / chunk.length) }, () => chunk);
    const r = await both(sse(chunks));
    expect(r.via.body.length).toBeGreaterThanOrEqual(50e6);
    expect(sha(r.via.body)).toBe(sha(r.direct.body));
    expect(r.via.headers).toEqual(r.direct.headers);
  }, 60_000);

  it('passes gzip, br and zstd response bodies compressed, with their content-encoding', async () => {
    const json = Buffer.from(JSON.stringify({ object: 'list', data: [{ id: 'gpt-5-codex', note: 'ü'.repeat(500) }] }));
    const encoded: [string, Buffer][] = [
      ['gzip', zlib.gzipSync(json)],
      ['br', zlib.brotliCompressSync(json)],
      ['zstd', execFileSync('zstd', ['-q', '-c', '-'], { input: json })],
    ];
    for (const [enc, bytes] of encoded) {
      const r = await both(
        {
          kind: 'exact',
          status: 200,
          headers: [
            ['content-type', 'application/json'],
            ['content-encoding', enc],
            ['content-length', String(bytes.length)],
          ],
          chunks: [bytes],
        },
        '/models',
        { method: 'GET' },
      );
      expectSame(r);
      expect(r.via.body.equals(bytes)).toBe(true);
      await companion.idle();
      const [s] = (await companion.store.list({ limit: 1 })).items;
      expect((await companion.store.get(s.id))?.response.body).toEqual(JSON.parse(json.toString()));
    }
  });

  it('sends gzip, br and zstd request bodies upstream unchanged, and records them decoded', async () => {
    const json = Buffer.from(
      JSON.stringify({ model: 'gpt-5-codex', input: [{ type: 'message', role: 'user', content: 'ß'.repeat(300) }] }),
    );
    const encoded: [string, Buffer][] = [
      ['gzip', zlib.gzipSync(json)],
      ['br', zlib.brotliCompressSync(json)],
      ['zstd', execFileSync('zstd', ['-q', '-c', '-'], { input: json })],
    ];
    upstream.setScenario(() => ({ kind: 'sse', events: response([message('ok')]) }));
    for (const [enc, bytes] of encoded) {
      upstream.requests.length = 0;
      const res = await fetchRaw(`${companion.url}/v1/responses`, {
        headers: { 'content-type': 'application/json', 'content-encoding': enc, 'content-length': String(bytes.length) },
        body: bytes,
      });
      expect(res.status).toBe(200);
      const [got] = upstream.requests;
      expect(got.raw.equals(bytes)).toBe(true);
      expect(got.headers['content-encoding']).toBe(enc);
      expect(got.headers['content-length']).toBe(String(bytes.length));
      await companion.idle();
      const [s] = (await companion.store.list({ limit: 1 })).items;
      const rec = await companion.store.get(s.id);
      expect(rec?.request).toMatchObject({ bodyEncoding: enc, bodyBytes: bytes.length });
      expect(rec?.request.body).toEqual(JSON.parse(json.toString()));
    }
  });

  it('passes 4xx and 5xx replies with their headers and bodies', async () => {
    for (const status of [400, 401, 429, 500, 503]) {
      const body = JSON.stringify({ error: { message: `status ${status}`, type: 'server_error' } });
      expectSame(
        await both({
          kind: 'exact',
          status,
          headers: [
            ['content-type', 'application/json'],
            ['retry-after', '7'],
            ['x-ratelimit-remaining-requests', '0'],
            ['content-length', String(body.length)],
          ],
          chunks: [body],
        }),
      );
    }
  });

  it('passes 204 and 302 replies, and adds no content-type to a reply that has none', async () => {
    const noContent = await both({ kind: 'exact', status: 204, headers: [['x-request-id', 'req_204']], chunks: [] });
    expectSame(noContent);
    expect(noContent.via.headers.find(([k]) => k === 'content-type')).toBeUndefined();
    const redirect = await both({
      kind: 'exact',
      status: 302,
      headers: [
        ['location', 'https://example.invalid/elsewhere'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['content-length', '0'],
      ],
      chunks: [],
    });
    expectSame(redirect);
    const untyped = await both({ kind: 'exact', status: 200, headers: [['x-plain', 'yes']], chunks: ['no type here'] });
    expectSame(untyped);
    expect(untyped.via.headers.find(([k]) => k === 'content-type')).toBeUndefined();
  });

  it('keeps concurrent streams apart, each byte for byte', async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => encodeSse(response([message(`stream ${i} `.repeat(200), { pieces: 40 })])));
    upstream.setScenario((req) => {
      const i = Number(req.headers['x-stream']);
      return { kind: 'raw', chunks: bodies[i].match(/[\s\S]{1,500}/g)!, chunkDelayMs: 1 };
    });
    const seen = await Promise.all(
      bodies.map((_, i) => fetchRaw(`${companion.url}/v1/responses`, { headers: { 'x-stream': String(i) }, body: '{}' })),
    );
    seen.forEach((s, i) => expect(s.body.toString()).toBe(bodies[i]));
  });
});
