/**
 * Capture runs in its own worker thread: forwarding never waits for it, not even for a capture
 * hook that never returns, and shutdown lets streams finish, then records those it had to cut.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { encodeSse, message, response } from '../support/sse';
import { nextChunk, openRequest, rawRequest } from '../support/http';
import { codexSession } from '../support/session';
import { fakeKey } from '../support/keys';
import { Store } from '../../companion/store/store';
import { createLogger } from '../../companion/lib/log';

/** The summaries stored in a state directory, read after its companion has closed. */
function storedIn(home: string) {
  const store = Store.open({ home, log: createLogger('silent') });
  try {
    return store.list({}).items;
  } finally {
    store.close();
  }
}

const auth = { authorization: `Bearer ${fakeKey('proj-worker-abcdefghijklmnop')}`, 'content-type': 'application/json' };

describe('the capture worker', () => {
  let upstream: FakeUpstream | null = null;
  let companion: TestCompanion | null = null;
  afterEach(async () => {
    await companion?.dispose();
    await upstream?.close();
    companion = upstream = null;
  });

  /** A companion whose worker gets stuck in a capture hook, and the file the hook writes when reached. */
  async function startStuck(up: FakeUpstream): Promise<[TestCompanion, string]> {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'stuck-')), 'reached');
    process.env.CODEX_DEVTOOLS_TEST_STUCK_MARKER = marker;
    companion = await startTestCompanion({
      apiUpstream: up.baseUrl,
      captureThread: 'worker',
      captureAddons: [new URL('../support/addons/stuck.ts', import.meta.url).href],
      drainMs: 300,
      historyTimeoutMs: 500,
    });
    return [companion, marker];
  }

  it('forwards the request and the whole response while a capture hook in the worker never returns', async () => {
    const sse = encodeSse(response([message('answered while capture is stuck')]));
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'raw', chunks: [sse] }) });
    const [c, marker] = await startStuck(upstream);
    const steps = codexSession(40);
    for (const [i, step] of [steps[10], steps[39]].entries()) {
      const body = Buffer.from(JSON.stringify(step.body));
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(sse);
      expect(upstream.requests[i].raw.equals(body)).toBe(true);
      // The worker reached the hook (so it had decoded and parsed the first request) and is stuck in it.
      await expect.poll(() => fs.existsSync(marker), { timeout: 20_000 }).toBe(true);
    }
    // The history lives in the stuck thread: reading it fails as unavailable instead of hanging.
    await expect(c.store.list({})).rejects.toThrow(/busy or stuck/);
    delete process.env.CODEX_DEVTOOLS_TEST_STUCK_MARKER;
  }, 60_000);

  it('lists an exchange Codex has received on the next history read, though capture stores it later', async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('stored late')]) }) });
    companion = await startTestCompanion({
      apiUpstream: upstream.baseUrl,
      captureAddons: [new URL('../support/addons/slow.ts', import.meta.url).href],
    });
    const [step] = codexSession(1);
    const res = await rawRequest(`${companion.url}/v1/responses`, { method: 'POST', headers: auth, body: JSON.stringify(step.body) });
    expect(res.status).toBe(200);
    // The slow hook still holds the capture thread: the read waits for capture to settle.
    const listed = await rawRequest(`${companion.url}/api/exchanges`, { headers: { authorization: `Bearer ${companion.token()}` } });
    expect(JSON.parse(listed.body.toString()).items.map((x: { preview: string }) => x.preview)).toEqual(['stored late']);
  });

  it('answers a history read with 503 while a capture hook holds the worker, and never hangs', async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('never stored')]) }) });
    const [c, marker] = await startStuck(upstream);
    const [step] = codexSession(1);
    await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: auth, body: JSON.stringify(step.body) });
    await expect.poll(() => fs.existsSync(marker), { timeout: 20_000 }).toBe(true);
    const listed = await rawRequest(`${c.url}/api/exchanges`, { headers: { authorization: `Bearer ${c.token()}` } });
    expect(listed.status).toBe(503);
    expect(JSON.parse(listed.body.toString())).toMatchObject({ error: 'unavailable', message: expect.stringMatching(/busy or stuck/) });
    delete process.env.CODEX_DEVTOOLS_TEST_STUCK_MARKER;
  }, 60_000);

  it('captures through the real worker thread as it does in-process', async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('from the worker')]) }) });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, captureThread: 'worker' });
    const [step] = codexSession(1);
    const res = await rawRequest(`${companion.url}/v1/responses`, { method: 'POST', headers: auth, body: JSON.stringify(step.body) });
    expect(res.status).toBe(200);
    await companion.idle();
    const [s] = (await companion.store.list({})).items;
    expect(s).toMatchObject({ status: 'completed', preview: 'from the worker', threadId: step.headers['thread-id'] ?? expect.any(String) });
    // Analysed in the worker too: the summary carries its cache brief and cost.
    expect(s.cache).not.toBeNull();
  }, 60_000);

  it('on shutdown lets a stream in flight run for the drain time, then cuts it and records why', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    upstream = await startFakeUpstream({
      scenario: () => ({
        kind: 'sse',
        events: response([message('never finished', { pieces: 4 })]),
        chunking: 'per-event',
        hold: { beforeChunk: 2, until: held },
      }),
    });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, drainMs: 300 });
    const { res } = await openRequest(`${companion.url}/v1/responses`, { headers: auth, body: '{"model":"gpt-5-codex","input":[]}' });
    await nextChunk(res);
    const closedAt = Date.now();
    await companion.close();
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(250);
    release();
    // The companion is gone: what it stored is read from its state directory.
    const [s] = storedIn(companion.home);
    expect(s).toMatchObject({ status: 'aborted', error: { code: 'shutdown' } });
    expect(s.error?.message).toMatch(/shut down/);
  });

  it('on shutdown cuts a request still waiting for the upstream, and records it as cut by the shutdown', async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'hang' }) });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, drainMs: 300 });
    const req = http.request(`${companion.url}/v1/responses`, { method: 'POST', headers: auth });
    req.on('error', () => {}); // the companion closes the connection: that is the point
    req.end('{"model":"gpt-5-codex","input":[]}');
    await expect.poll(() => upstream!.requests.length, { timeout: 5000 }).toBe(1);
    await companion.close();
    const [s] = storedIn(companion.home);
    expect(s).toMatchObject({ status: 'aborted', error: { code: 'shutdown' } });
    expect(s.error?.message).toMatch(/shut down before the upstream answered/);
  });

  it('on shutdown lets a stream that finishes within the drain time complete', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const events = response([message('finished in time', { pieces: 4 })]);
    upstream = await startFakeUpstream({
      scenario: () => ({ kind: 'sse', events, chunking: 'per-event', hold: { beforeChunk: 2, until: held } }),
    });
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, drainMs: 5000 });
    const { res } = await openRequest(`${companion.url}/v1/responses`, { headers: auth, body: '{"model":"gpt-5-codex","input":[]}' });
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => parts.push(c));
    const ended = new Promise<void>((r) => res.on('end', r));
    await new Promise((r) => setTimeout(r, 50));
    const closing = companion.close();
    setTimeout(release, 100);
    await ended;
    await closing;
    expect(Buffer.concat(parts).toString()).toBe(encodeSse(events));
    expect(storedIn(companion.home)[0]).toMatchObject({ status: 'completed' });
  });
});
