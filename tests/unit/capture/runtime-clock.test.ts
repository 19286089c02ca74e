/**
 * Capture may run behind forwarding (a burst of requests leaves the worker a backlog), so an
 * exchange's times are the forward path's, carried in its messages, not the moment the worker
 * got to them: a backlog must not stretch durations or shift event times.
 */
import { expect, it } from 'vitest';
import { AddonManager } from '../../../companion/capture/addons';
import { CaptureRuntime } from '../../../companion/capture/runtime';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { DEFAULT_ROUTE, RESPONSES_POST } from '../../support/flows';
import { encodeSse, message, response } from '../../support/sse';

/** A capture runtime, as the worker runs it, and the record of the first exchange it finishes. */
function runtimeKeepingRecord(): { runtime: CaptureRuntime; finished(): Promise<ExchangeRecord> } {
  const addons = new AddonManager(createLogger('silent'));
  let record: ExchangeRecord | null = null;
  addons.add({ name: 'keep', response: (f) => void (record ??= f.toRecord()) });
  const runtime = new CaptureRuntime(addons, () => undefined, { maxCaptureBytes: 1 << 24, capturing: true });
  return {
    runtime,
    finished: async () => {
      await runtime.idle();
      if (!record) throw new Error('the exchange was not finished');
      return record;
    },
  };
}

it("records the forward path's times for start, first byte, each event and end, however late the worker handles them", async () => {
  const { runtime, finished } = runtimeKeepingRecord();
  // A minute ago, as a worker a minute behind would see it.
  const t0 = Date.now() - 60_000;
  const id = 'clock-test';
  runtime.handle({
    t: 'open',
    id,
    init: { ...RESPONSES_POST, id, startedAt: t0 },
  });
  const body = Buffer.from(JSON.stringify({ model: 'gpt-5.5', input: [], stream: true }));
  runtime.handle({ t: 'reqChunk', id, chunk: body });
  runtime.handle({ t: 'reqEnd', id, bytes: body.length, lost: null });
  runtime.handle({ t: 'head', id, status: 200, headers: [['content-type', 'text/event-stream']], at: t0 + 5 });
  const events = response([message('hello')]);
  const first = Buffer.from(encodeSse(events.slice(0, 2)));
  const rest = Buffer.from(encodeSse(events.slice(2)));
  runtime.handle({ t: 'chunk', id, chunk: first, at: t0 + 10 });
  runtime.handle({ t: 'chunk', id, chunk: rest, at: t0 + 20 });
  runtime.handle({ t: 'end', id, at: t0 + 50 });
  const r = await finished();
  expect(r.startedAt).toBe(t0);
  expect(r.firstByteAt).toBe(t0 + 5);
  expect(r.endedAt).toBe(t0 + 50);
  expect(r.response.events.map((e) => e.t)).toEqual([10, 10, ...Array<number>(events.length - 2).fill(20)]);
  expect(r.status).toBe('completed');
});

it("records a WebSocket turn's times as the forward path relayed its messages", async () => {
  const { runtime, finished } = runtimeKeepingRecord();
  const t0 = Date.now() - 60_000;
  runtime.handle({
    t: 'wsOpen',
    conn: 1,
    init: {
      path: '/v1/responses',
      query: '',
      upstreamUrl: 'wss://api.openai.com/v1/responses',
      handshakeHeaders: [],
      upgradeResponseHeaders: [],
      upgradedAt: t0 - 1000,
      route: DEFAULT_ROUTE,
    },
  });
  runtime.handle({
    t: 'wsText',
    conn: 1,
    from: 'client',
    text: JSON.stringify({ type: 'response.create', model: 'gpt-5.5', input: [] }),
    at: t0,
  });
  const events = response([message('hello')]);
  events.forEach((e, i) => runtime.handle({ t: 'wsText', conn: 1, from: 'server', text: JSON.stringify(e), at: t0 + 10 + i }));
  const r = await finished();
  expect(r.startedAt).toBe(t0);
  expect(r.firstByteAt).toBe(t0);
  expect(r.response.events.map((e) => e.t)).toEqual(events.map((_, i) => 10 + i));
  expect(r.endedAt).toBe(t0 + 10 + events.length - 1);
});
