/**
 * Live progress of a response that streams reasoning and a tool call, through the companion to
 * feed clients: a subscriber sees the reasoning text and the call's arguments before the response
 * ends, every client sees the row preview and an estimate that counts them, and every scope hears
 * when a response starts and stops streaming.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRESS_TEXT_CHARS } from '../../companion/live/live-text';
import { LIVE_ITEM_CHARS } from '../../companion/pipeline/live-items';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { functionCall, reasoning, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { openFeed, type TestFeed } from '../support/live-client';
import { fakeKey } from '../support/keys';

const EXT = 'chrome-extension://dceflbcgefibjiafpacongiijjkjedae';
const META = JSON.stringify({ session_id: 's-p', thread_id: 't-p', turn_id: 'turn-1', request_kind: 'turn', thread_source: 'user' });
const THOUGHT = 'Looking at the failing test before touching the code.';
const ARGS = JSON.stringify({ cmd: 'npx vitest run tests/unit/math.test.ts' });

const itemText = (feed: TestFeed, index: number) =>
  feed.messages
    .flatMap((m) => (m.type === 'exchange/progress' ? (m.items ?? []).filter((i) => i.index === index).map((i) => i.delta) : []))
    .join('');

describe('live progress of reasoning and tool calls', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  let release: () => void = () => {};
  let args = ARGS;
  const post = () =>
    rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('test-live-0123456789')}`, 'x-codex-turn-metadata': META },
      body: JSON.stringify({ model: 'gpt-5-codex', input: [] }),
    });

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setScenario(() => {
      const held = new Promise<void>((r) => (release = r));
      const events = response([reasoning(THOUGHT), functionCall('exec_command', args)]);
      // Held before the call's done event: reasoning and both halves of the arguments have streamed.
      const before = events.findIndex((e) => e.type === 'response.function_call_arguments.done');
      return { kind: 'sse', events, chunking: 'per-event', chunkDelayMs: 5, hold: { beforeChunk: before, until: held } };
    });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl, hub: { progressIntervalMs: 20 } });
  });
  afterAll(async () => {
    release();
    await c.dispose();
    await upstream.close();
  });

  it('shows a subscriber the reasoning text and the tool call with its arguments before the response ends', async () => {
    const panel = await openFeed(c.url, { token: c.token(), origin: EXT });
    const watcher = await openFeed(c.url, { token: c.token(), origin: EXT });
    await Promise.all([panel.waitFor('feed/snapshot'), watcher.waitFor('feed/snapshot')]);
    const done = post();
    const started = await panel.waitFor('exchange/started');
    panel.send({ type: 'exchange/subscribe', id: started.exchange.id });
    await expect.poll(() => itemText(panel, 1), { timeout: 10_000 }).toBe(ARGS);
    expect(itemText(panel, 0)).toBe(THOUGHT);
    expect(panel.messages.some((m) => m.type === 'exchange/completed')).toBe(false);
    const call = panel.messages.flatMap((m) => (m.type === 'exchange/progress' ? (m.items ?? []) : [])).find((i) => i.index === 1);
    expect(call).toMatchObject({ kind: 'function_call', name: 'exec_command' });
    // Every client gets the row's preview and the estimate; only the subscriber gets the text.
    const last = watcher.messages.filter((m) => m.type === 'exchange/progress').at(-1);
    expect(last).toMatchObject({ preview: { kind: 'function_call', name: 'exec_command' }, outputChars: THOUGHT.length + ARGS.length });
    expect(last?.type === 'exchange/progress' && last.estimatedOutputTokens).toBeGreaterThan(10);
    expect(watcher.messages.some((m) => m.type === 'exchange/progress' && m.items !== undefined)).toBe(false);
    release();
    await done;
    await panel.waitFor('exchange/completed');
    panel.close();
    watcher.close();
  });

  it('tells every scope, the popup’s and the background’s included, when a response streams and when it stops', async () => {
    const background = await openFeed(c.url, { token: c.token(), scope: 'usage' });
    expect((await background.waitFor('feed/snapshot')).streaming).toBe(0);
    const done = post();
    expect((await background.waitFor('activity/changed')).streaming).toBe(1);
    release();
    await done;
    await background.waitFor('activity/changed', (m) => m.streaming === 0);
    background.close();
  });

  it('bounds a huge argument stream: capped per item, paced per message', async () => {
    args = JSON.stringify({ patch: 'x'.repeat(LIVE_ITEM_CHARS * 4) });
    const panel = await openFeed(c.url, { token: c.token(), origin: EXT });
    await panel.waitFor('feed/snapshot');
    const done = post();
    const started = await panel.waitFor('exchange/started');
    panel.send({ type: 'exchange/subscribe', id: started.exchange.id });
    await panel.waitFor('exchange/progress', (m) => (m.items ?? []).some((i) => i.truncated === true));
    // Every delta is counted, the capped text included, once the worker has read them all (the
    // upstream holds the end): a loaded machine can send the truncation before the last deltas.
    await panel.waitFor('exchange/progress', (m) => m.outputChars === THOUGHT.length + args.length);
    expect(itemText(panel, 1)).toBe(args.slice(0, LIVE_ITEM_CHARS));
    for (const m of panel.messages)
      if (m.type === 'exchange/progress')
        expect((m.items ?? []).reduce((n, i) => n + i.delta.length, 0)).toBeLessThanOrEqual(PROGRESS_TEXT_CHARS);
    const last = panel.messages.filter((m) => m.type === 'exchange/progress').at(-1);
    expect(last?.type === 'exchange/progress' && last.outputChars).toBe(THOUGHT.length + args.length);
    release();
    await done;
    panel.close();
    args = ARGS;
  });
});
