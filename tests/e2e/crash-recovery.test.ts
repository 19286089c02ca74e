import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DB_FILE } from '../../companion/store/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { message, response } from '../support/sse';
import { startCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { openRequest, nextChunk, rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';

/** Resolves once the store in `home` holds an exchange begun and not ended (within 10 s). */
async function begunOnDisk(home: string): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    if (!fs.existsSync(path.join(home, DB_FILE))) continue;
    const db = new Database(path.join(home, DB_FILE), { readonly: true });
    try {
      if ((db.prepare('SELECT count(*) AS n FROM exchanges WHERE ended = 0').get() as { n: number }).n > 0) return;
    } catch {
      // not created yet
    } finally {
      db.close();
    }
  }
}

describe('a companion killed with SIGKILL', () => {
  /** The state directory whose begun row the answer to the 42-message request waits for. */
  let thinkingHome = '';
  let upstream: FakeUpstream;
  let home: string;
  let port: number;
  let release: () => void = () => {};
  // Every companion a test starts: one a failed test left running (before its kill, say) is
  // killed here, so it cannot hold the port or the state directory for the next test.
  const started: ReturnType<typeof startCli>[] = [];
  const start = (args: string[]) => {
    const cli = startCli(args);
    started.push(cli);
    return cli;
  };
  afterEach(async () => {
    for (const cli of started.splice(0)) await cli.stop('SIGKILL');
  });
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
        if (req.body?.input?.length === 42) {
          // As a model does, the answer starts a while after the request: the capture worker stores the
          // exchange's start in that time (within its flush window). The answer waits until it has,
          // not for a fixed time a loaded machine may not keep. (Killed before the worker has stored
          // the start, an exchange is lost.)
          return { kind: 'sse', events: response([message('answer 42')]), hold: { beforeChunk: 0, until: begunOnDisk(thinkingHome) } };
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

  it('keeps the exchange in flight as aborted with what was captured, and every finished one, after a restart', async () => {
    const first = start(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
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
    // The five finished ones and this one's start are on disk before the kill: the worker writes
    // a start within 200 ms, with its first events (one killed sooner is lost to history; README).
    const db = new Database(path.join(home, DB_FILE), { readonly: true });
    const onDisk = () => db.prepare('SELECT sum(ended = 1) AS ended, sum(ended = 0) AS begun FROM exchanges').get();
    try {
      await expect.poll(onDisk, { timeout: 10_000 }).toEqual({ ended: 5, begun: 1 });
    } finally {
      db.close();
    }
    first.child.kill('SIGKILL');
    await first.exited;
    res.destroy();

    const second = start(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
    try {
      await second.waitFor('listening on');
      const { items: all } = await get('/exchanges');
      // The exchange cut by the kill was written when it started: it is kept, aborted, with its request.
      expect(all).toHaveLength(6);
      const [cut, ...items] = all;
      expect(cut).toMatchObject({ status: 'aborted', sessionId: 's-crash', threadId: 't-crash' });
      expect((await get(`/exchanges/${cut.id}`)).request.body.input).toHaveLength(99);
      expect(items.map((s: any) => s.preview)).toEqual(['answer 5', 'answer 4', 'answer 3', 'answer 2', 'answer 1']);
      for (const s of items) {
        const r = await get(`/exchanges/${s.id}`);
        expect(r.request.body.input.length).toBe(Number(s.preview.split(' ')[1]));
        expect(JSON.stringify(r)).not.toContain('codex_devtools.unreadable');
      }
      expect((await get('/status')).store.corruptLines).toBe(0);
      // Capture goes on after the restart.
      await request(5);
      await expect.poll(async () => (await get('/exchanges')).items.length, { timeout: 10_000 }).toBe(7);
    } finally {
      await second.stop();
    }
  });

  it('keeps an exchange killed right after Codex had its last byte, completed or aborted, never lost', async () => {
    const fresh = tempHome();
    thinkingHome = fresh;
    try {
      const c = start(['--port', String(port), '--home', fresh, '--upstream', upstream.baseUrl]);
      await c.waitFor('listening on');
      const token = () => fs.readFileSync(`${fresh}/token`, 'utf8').trim();
      const res = await request(41);
      expect(res.status).toBe(200);
      c.child.kill('SIGKILL');
      await c.exited;
      const again = start(['--port', String(port), '--home', fresh, '--upstream', upstream.baseUrl]);
      try {
        await again.waitFor('listening on');
        const listed = await rawRequest(`http://127.0.0.1:${port}/api/exchanges`, { headers: { authorization: `Bearer ${token()}` } });
        const { items } = JSON.parse(listed.body.toString());
        expect(items).toHaveLength(1);
        expect(['completed', 'aborted']).toContain(items[0].status);
        const r = await rawRequest(`http://127.0.0.1:${port}/api/exchanges/${items[0].id}`, {
          headers: { authorization: `Bearer ${token()}` },
        });
        expect(JSON.parse(r.body.toString()).request.body.input).toHaveLength(42);
      } finally {
        await again.stop();
      }
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('opens cleanly after being killed at random moments while writing', async () => {
    for (let round = 0; round < 3; round++) {
      const c = start(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
      await c.waitFor('listening on');
      const burst = Promise.allSettled(Array.from({ length: 20 }, (_, i) => request(i)));
      await new Promise((r) => setTimeout(r, 50 + round * 70));
      c.child.kill('SIGKILL');
      await c.exited;
      await burst;
    }
    const last = start(['--port', String(port), '--home', home, '--upstream', upstream.baseUrl]);
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
