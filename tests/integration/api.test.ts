import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { loadFixture } from '../support/fixtures';
import { ExchangeListResponseSchema, ExchangeRecordSchema, StatusResponseSchema } from '../../companion/protocol';
import { fakeKey } from '../support/keys';

const EXT = 'chrome-extension://dceflbcgefibjiafpacongiijjkjedae';

describe('the REST API', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  const api = (path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    rawRequest(`${c.url}/api${path}`, { ...opts, headers: { authorization: `Bearer ${c.token()}`, ...opts.headers } });
  const json = async (path: string, opts?: Parameters<typeof api>[1]) => JSON.parse((await api(path, opts)).body.toString());
  const codexRequest = (name: string) => {
    const f = loadFixture(name);
    const { 'content-length': _len, host: _host, ...headers } = f.request.headers;
    return rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${fakeKey('test-api-0123456789abcdef')}` },
      body: JSON.stringify(f.request.body),
    });
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      scenario: () => ({ kind: 'sse', events: response([message('answer')], { usage: { input: 5000, cached: 4096, output: 12 } }) }),
    });
    // The disk-full test caps the database's pages in the capture worker, where the store lives.
    process.env.CODEX_DEVTOOLS_FAULT_INJECTION = '1';
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
  });
  beforeEach(async () => {
    await c.store.clear();
  });
  afterAll(async () => {
    await c.dispose();
    delete process.env.CODEX_DEVTOOLS_FAULT_INJECTION;
    await upstream.close();
  });

  describe('security matrix', () => {
    it('answers health without a token', async () => {
      const res = await rawRequest(`${c.url}/api/health`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body.toString())).toEqual({ ok: true, version: expect.any(String) });
    });

    it('refuses a missing or wrong token with 401', async () => {
      expect((await rawRequest(`${c.url}/api/exchanges`)).status).toBe(401);
      expect((await rawRequest(`${c.url}/api/exchanges`, { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(401);
    });

    it('refuses a web page origin with 403 even with the right token', async () => {
      const res = await api('/exchanges', { headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      expect((await rawRequest(`${c.url}/api/health`, { headers: { origin: 'http://localhost:3000' } })).status).toBe(403);
    });

    it('accepts an extension origin with the token and answers its CORS preflight', async () => {
      const res = await api('/exchanges', { headers: { origin: EXT } });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(EXT);
      const pre = await rawRequest(`${c.url}/api/exchanges`, {
        method: 'OPTIONS',
        headers: { origin: EXT, 'access-control-request-method': 'GET' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-headers']).toContain('authorization');
      expect((await api('/exchanges', { headers: { origin: 'moz-extension://0b2f3c1e-1111-2222-3333-444455556666' } })).status).toBe(200);
    });

    it('refuses a foreign Host with 421', async () => {
      expect((await api('/exchanges', { headers: { host: 'rebind.example:8642' } })).status).toBe(421);
    });
  });

  it('lists captured exchanges with identity and usage, newest first, in the protocol shape', async () => {
    await codexRequest('a-plain-text-1');
    await codexRequest('e-subagent-v1-3');
    await c.idle();
    const list = ExchangeListResponseSchema.parse(await json('/exchanges'));
    expect(list.items).toHaveLength(2);
    const [child, main] = list.items;
    expect(child.agent).toEqual({ role: 'subagent', name: '/root', nickname: null });
    expect(child.parentThreadId).toBeTruthy();
    expect(main).toMatchObject({
      agent: { role: 'main' },
      requestKind: 'turn',
      transport: 'http',
      codexCounted: true,
      usage: { inputTokens: 5000, cachedTokens: 4096, outputTokens: 12 },
    });
    const page = await json('/exchanges?limit=1');
    expect(page.items[0].id).toBe(child.id);
    expect((await json(`/exchanges?limit=1&before=${page.nextBefore}`)).items[0].id).toBe(main.id);
    expect((await json(`/exchanges?thread=${child.threadId}`)).items.map((s: any) => s.id)).toEqual([child.id]);
    expect((await json('/exchanges?status=failed')).items).toEqual([]);
  });

  it('serves the full record of one exchange', async () => {
    await codexRequest('b-tool-call-2');
    await c.idle();
    const [s] = (await json('/exchanges')).items;
    const record = ExchangeRecordSchema.parse(await json(`/exchanges/${s.id}`));
    expect((record.request.body as any).input.at(-1).type).toBe('function_call_output');
    expect(record.response.output[0]).toMatchObject({ type: 'message' });
    expect(record.request.headers.authorization).toBe('[redacted …cdef]');
  });

  it('answers bad parameters with 400 and a message, an unknown id with 404, never a stack', async () => {
    for (const q of ['limit=0', 'limit=abc', 'status=weird', 'kind=x']) {
      const res = await api(`/exchanges?${q}`);
      expect(res.status, q).toBe(400);
      const body = JSON.parse(res.body.toString());
      expect(body.error).toBe('bad_request');
      expect(body.message.length).toBeGreaterThan(0);
      expect(res.body.toString()).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await api('/exchanges/nope')).status).toBe(404);
    expect((await api('/usage?since=10&until=5')).status).toBe(400);
    expect((await api('/profiles', { method: 'POST', body: '{not json' })).status).toBe(400);
    expect((await api('/nothing-here')).status).toBe(404);
  });

  it('deletes one session, or everything', async () => {
    await codexRequest('a-plain-text-1');
    await codexRequest('c-reasoning-1');
    await c.idle();
    const [newest, oldest] = (await json('/exchanges')).items;
    expect((await api(`/sessions/${oldest.sessionId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await json('/exchanges')).items.map((s: any) => s.id)).toEqual([newest.id]);
    expect((await api('/sessions/unknown-session', { method: 'DELETE' })).status).toBe(404);
    expect(await json('/exchanges', { method: 'DELETE' })).toEqual({ deleted: 1 });
    expect((await json('/exchanges')).items).toEqual([]);
  });

  it('keeps forwarding while capture is paused, and records nothing until resumed', async () => {
    expect(await json('/capture/pause', { method: 'POST' })).toMatchObject({ paused: true });
    const res = await codexRequest('a-plain-text-1');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('answer');
    await c.idle();
    expect((await json('/exchanges')).items).toEqual([]);
    expect(await json('/capture/resume', { method: 'POST' })).toMatchObject({ paused: false });
    await codexRequest('a-plain-text-1');
    await c.idle();
    expect((await json('/exchanges')).items).toHaveLength(1);
  });

  it('pauses and resumes on a full disk, answering the new state and that it could not be saved', async () => {
    // settings.json is written through a temp file beside it; pointing that at /dev/full makes the
    // write fail with ENOSPC exactly as on a full disk.
    const tmp = `${path.join(c.home, 'settings.json')}.${process.pid}.tmp`;
    const fillDisk = () => fs.symlinkSync('/dev/full', tmp);
    try {
      fillDisk();
      const paused = await api('/capture/pause', { method: 'POST' });
      expect(paused.status).toBe(200);
      const state = JSON.parse(paused.body.toString());
      expect(state).toMatchObject({ paused: true, saveError: expect.stringMatching(/ENOSPC/) });
      expect(state.errors).toBeGreaterThan(0);
      expect((await json('/status')).capture).toMatchObject({ paused: true, saveError: expect.stringMatching(/ENOSPC/) });
      expect(fs.existsSync(tmp)).toBe(false);

      fillDisk();
      expect(await json('/capture/resume', { method: 'POST' })).toMatchObject({
        paused: false,
        saveError: expect.stringMatching(/ENOSPC/),
      });
      // Space is back: the next change is saved and the problem is gone.
      expect(await json('/capture/resume', { method: 'POST' })).toEqual({ paused: false, errors: 0, lastError: null });
      expect(JSON.parse(fs.readFileSync(path.join(c.home, 'settings.json'), 'utf8'))).toMatchObject({ capturePaused: false });
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  });

  it('counts a record the full disk holds back as a capture error until the retry writes it', async () => {
    await codexRequest('a-plain-text-1');
    await c.idle();
    // Every write that needs a new page fails as on a full disk (SQLite reports ENOSPC as SQLITE_FULL).
    await c.store.capPages('current');
    try {
      await codexRequest('a-plain-text-1');
      await c.idle();
      const failing = StatusResponseSchema.parse(await json('/status'));
      // The record with its analysis, one write (an exchange that ends within the flush window has
      // no begun row): held back, counted once.
      expect(failing.capture).toMatchObject({ errors: 1, lastError: expect.stringMatching(/SQLITE_FULL/) });
      expect(failing.store).toMatchObject({ writeErrors: 1, pendingWrites: 1, writeFailing: true });
    } finally {
      await c.store.capPages(null);
    }
    // No further traffic: the store's own retry writes the record and the error goes away.
    await vi.waitFor(async () => expect((await json('/status')).capture).toEqual({ paused: false, errors: 0, lastError: null }), {
      timeout: 10_000,
      interval: 100,
    });
    const recovered = StatusResponseSchema.parse(await json('/status'));
    expect(recovered.store).toMatchObject({ writeErrors: 1, pendingWrites: 0, writeFailing: false });
    expect(recovered.store.lastWriteError?.recoveredAt).toEqual(expect.any(Number));
  });

  it('reports the latest rate limits and the capture status', async () => {
    const f = loadFixture('d-ratelimit-headers-ok-1');
    upstream.setScenario(() => ({ kind: 'sse', headers: f.response_sent_by_fake_upstream.headers, events: response([message('x')]) }));
    await codexRequest('d-ratelimit-headers-ok-1');
    await c.idle();
    const { rateLimits } = await json('/ratelimits');
    expect(rateLimits.codex[0].primary).toEqual({ usedPercent: 12.5, windowMinutes: 300, resetsAt: 1795987068 });
    const status = StatusResponseSchema.parse(await json('/status'));
    expect(status.capture).toEqual({ paused: false, errors: 0, lastError: null });
    expect(status.store.exchanges).toBe(1);
  });
});
