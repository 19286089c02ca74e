import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { message, response } from '../support/sse';
import { startCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { openRequest, nextChunk, rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';

describe('a companion killed with SIGKILL', () => {
  let upstream: FakeUpstream;
  let home: string;
  let port: number;
  let release: () => void = () => {};
  const get = async (p: string) => {
    const token = fs.readFileSync(`${home}/token`, 'utf8').trim();
    const res = await rawRequest(`http://127.0.0.1:${port}/api${p}`, { headers: { authorization: `Bearer ${token}` } });
    return JSON.parse(res.body.toString());
  };
  const request = (i: number) =>
    rawRequest(`http://127.0.0.1:${port}/v1/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fakeKey('test-crash-0123456789')}`,
        'session-id': 's-crash',
        'thread-id': 't-crash',
        'x-codex-turn-metadata': JSON.stringify({ request_kind: 'turn', thread_source: 'user', turn_id: `turn-${i}` }),
      },
      body: JSON.stringify({
        model: 'gpt-5-codex',
        input: Array.from({ length: i + 1 }, (_, k) => ({
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: `message ${k}` }],
        })),
      }),
    });

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      scenario: (req) => {
        if (req.body?.input?.length === 99) {
          const held = new Promise<void>((r) => (release = r));
          return {
            kind: 'sse',
            events: response([message('never finishes')]),
            chunking: 'per-event',
            hold: { beforeChunk: 3, until: held },
          };
        }
        return { kind: 'sse', events: response([message(`answer ${req.body?.input?.length}`)]) };
      },
    });
    home = tempHome();
    port = await freePort();
  });
  afterAll(async () => {
    release();
    await upstream.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('loses at most the exchange in flight: history reloads after a restart', async () => {
    const first = startCli(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
    await first.waitFor('listening on');
    for (let i = 0; i < 5; i++) await request(i);
    await expect.poll(async () => (await get('/exchanges')).items.length, { timeout: 10_000 }).toBe(5);
    // One more, held mid-stream, then a hard kill.
    const { res } = await openRequest(`http://127.0.0.1:${port}/v1/responses`, {
      headers: { authorization: `Bearer ${fakeKey('test-crash-0123456789')}`, 'session-id': 's-crash', 'thread-id': 't-crash' },
      body: JSON.stringify({
        model: 'gpt-5-codex',
        input: Array.from({ length: 99 }, () => ({ type: 'message', role: 'user', content: [] })),
      }),
    });
    await nextChunk(res);
    first.child.kill('SIGKILL');
    await first.exited;
    res.destroy();

    const second = startCli(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
    try {
      await second.waitFor('listening on');
      const { items } = await get('/exchanges');
      expect(items).toHaveLength(5);
      expect(items.map((s: any) => s.preview)).toEqual(['answer 5', 'answer 4', 'answer 3', 'answer 2', 'answer 1']);
      for (const s of items) {
        const r = await get(`/exchanges/${s.id}`);
        expect(r.request.body.input.length).toBe(Number(s.preview.split(' ')[1]));
        expect(JSON.stringify(r)).not.toContain('codex_devtools.unreadable');
      }
      expect((await get('/status')).store.corruptLines).toBe(0);
      // Capture goes on after the restart.
      await request(5);
      await expect.poll(async () => (await get('/exchanges')).items.length, { timeout: 10_000 }).toBe(6);
    } finally {
      await second.stop();
    }
  });

  it('opens cleanly after being killed at random moments while writing', async () => {
    for (let round = 0; round < 3; round++) {
      const c = startCli(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
      await c.waitFor('listening on');
      const burst = Promise.allSettled(Array.from({ length: 20 }, (_, i) => request(i)));
      await new Promise((r) => setTimeout(r, 50 + round * 70));
      c.child.kill('SIGKILL');
      await c.exited;
      await burst;
    }
    const last = startCli(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
    try {
      await last.waitFor('listening on');
      const { items } = await get('/exchanges?limit=1000');
      expect(items.length).toBeGreaterThanOrEqual(6);
      for (const s of items) {
        const r = await get(`/exchanges/${s.id}`);
        expect(r.id).toBe(s.id);
        expect(JSON.stringify(r.request.body)).not.toContain('codex_devtools.unreadable');
      }
      expect((await get('/status')).store.corruptLines).toBe(0);
    } finally {
      await last.stop();
    }
  });
});
