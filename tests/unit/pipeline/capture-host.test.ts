/**
 * The main thread's end of the capture worker sends what one turn of its loop captured as one
 * message: a streamed answer arrives in many small chunks, and a postMessage per chunk cost the
 * forwarding thread more than copying the bytes. Order and bytes must survive the batching. An
 * exchange's messages wait for its answer to begin (capture/channel.ts), at most HOLD_MS.
 */
import fs from 'node:fs';
import { MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaptureChannel, HOLD_MS } from '../../../companion/capture/channel';
import { CaptureHost } from '../../../companion/pipeline/host';
import type { FromWorker, ToWorker } from '../../../companion/capture/messages';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { createLogger } from '../../../companion/lib/log';
import { tempHome } from '../../support/companion';
import { DEFAULT_ROUTE } from '../../support/flows';
import { encodeSse, message, response } from '../../support/sse';

const homes: string[] = [];
const hosts: CaptureHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close(1000);
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** Main thread → worker messages have these types; the worker's answers have others. */
const TO_WORKER = new Set<string>([
  'open',
  'reqChunk',
  'reqEnd',
  'head',
  'chunk',
  'incomplete',
  'end',
  'fail',
  'capturing',
  'query',
  'history',
  'batch',
]);

function startHost(): { host: CaptureHost; seen: FromWorker[] } {
  const home = tempHome('codex-devtools-host-');
  homes.push(home);
  const seen: FromWorker[] = [];
  const config = {
    home,
    maxCaptureBytes: 1 << 24,
    configuredWindows: {},
    capturing: true,
    logLevel: 'warn',
    addonModules: [],
    maxStoreBytes: 1 << 30,
    announceImports: false,
  };
  const host = new CaptureHost(config, (m) => void seen.push(m), createLogger('silent'), 'inline', 1 << 24);
  hosts.push(host);
  return { host, seen };
}

/** One exchange's capture calls, all in the same turn of the loop, as the forward path makes them. */
function captureExchange(host: CaptureHost, body: Buffer, sse: Buffer): string {
  const c = host.channel.open({
    transport: 'http',
    method: 'POST',
    path: '/v1/responses',
    query: '',
    upstreamUrl: `${DEFAULT_ROUTE.upstream}/responses`,
    requestHeaders: [['content-type', 'application/json']],
    route: DEFAULT_ROUTE,
  });
  for (let at = 0; at < body.length; at += 100) c.requestChunk(body.subarray(at, at + 100));
  c.requestEnd();
  c.head(200, [['content-type', 'text/event-stream']], Date.now());
  for (let at = 0; at < sse.length; at += 64) c.chunk(sse.subarray(at, at + 64));
  c.end();
  return c.id;
}

it("posts one turn's capture messages as one batch, in order, and the worker stores the exchange whole", async () => {
  const { host, seen } = startHost();
  // The worker starts on the first message; a history call waits for it.
  await host.history('stats', []);
  const posted = vi.spyOn(MessagePort.prototype, 'postMessage');
  const body = Buffer.from(
    JSON.stringify({
      model: 'gpt-5.5',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      stream: true,
    }),
  );
  const text = 'An answer streamed in many small chunks. '.repeat(10);
  const sse = Buffer.from(encodeSse(response([message(text, { pieces: 40 })])));
  const id = captureExchange(host, body, sse);
  await new Promise((r) => setImmediate(r));
  const toWorker = posted.mock.calls.map(([m]) => m as ToWorker).filter((m) => TO_WORKER.has(m.t));
  expect(toWorker).toHaveLength(1);
  const batch = toWorker[0];
  if (batch.t !== 'batch') throw new Error(`expected a batch, got ${batch.t}`);
  const kinds = batch.messages.map((m) => m.t);
  const requestChunks = Math.ceil(body.length / 100);
  const responseChunks = Math.ceil(sse.length / 64);
  expect(kinds).toEqual([
    'open',
    ...Array<string>(requestChunks).fill('reqChunk'),
    'reqEnd',
    'head',
    ...Array<string>(responseChunks).fill('chunk'),
    'end',
  ]);
  // Every chunk's buffer moved with the one message, none copied again.
  expect(posted.mock.calls.find(([m]) => (m as ToWorker).t === 'batch')?.[1]).toHaveLength(requestChunks + responseChunks);
  posted.mockRestore();
  for (const until = Date.now() + 10_000; !seen.some((m) => m.t === 'analysed' && m.id === id) && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 20));
  const record = (await host.history('get', [id])) as ExchangeRecord;
  expect(record.request.bodyBytes).toBe(body.length);
  expect(record.request.body).toEqual(JSON.parse(body.toString()));
  expect(record.status).toBe('completed');
  expect(record.response.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text }] }]);
});

/** What the channel hands to the host for the worker, as [type, exchange id] pairs. */
function recordingChannel() {
  const sent: ToWorker[] = [];
  const channel = new CaptureChannel((m) => void sent.push(m), 1 << 24, 1 << 24);
  const open = () =>
    channel.open({
      transport: 'http',
      method: 'POST',
      path: '/v1/responses',
      query: '',
      upstreamUrl: `${DEFAULT_ROUTE.upstream}/responses`,
      requestHeaders: [['content-type', 'application/json']],
      route: DEFAULT_ROUTE,
    });
  return { channel, sent, open, kinds: () => sent.map((m) => m.t) };
}

describe('capture waits while a request waits for its answer', () => {
  afterEach(() => vi.useRealTimers());

  it('holds the request until its answer begins, then sends it in order; the rest goes at once', () => {
    const { sent, open, kinds } = recordingChannel();
    const c = open();
    c.requestChunk(Buffer.from('{"model":'));
    c.requestChunk(Buffer.from('"gpt-5.5"}'));
    c.requestEnd();
    expect(sent).toEqual([]);
    c.head(200, [['content-type', 'text/event-stream']], Date.now());
    expect(kinds()).toEqual(['open', 'reqChunk', 'reqChunk', 'reqEnd', 'head']);
    c.chunk(Buffer.from('data: {}\n\n'));
    expect(kinds()).toEqual(['open', 'reqChunk', 'reqChunk', 'reqEnd', 'head', 'chunk']);
    c.end();
    expect(kinds().at(-1)).toBe('end');
  });

  it('holds every exchange while another still waits, and keeps their order', () => {
    const { sent, open } = recordingChannel();
    const a = open();
    a.requestEnd();
    const b = open();
    b.requestEnd();
    a.head(200, [], Date.now());
    a.chunk(Buffer.from('data: {}\n\n'));
    // b still waits for its answer: nothing of a goes either.
    expect(sent).toEqual([]);
    b.head(200, [], Date.now());
    expect(sent.map((m) => `${m.t} ${'id' in m && m.id === a.id ? 'a' : 'b'}`)).toEqual([
      'open a',
      'reqEnd a',
      'open b',
      'reqEnd b',
      'head a',
      'chunk a',
      'head b',
    ]);
  });

  it(`sends what it holds after ${HOLD_MS} ms when an answer is slow, and at once when the exchange fails first`, () => {
    vi.useFakeTimers();
    const { sent, open, kinds } = recordingChannel();
    const slow = open();
    slow.requestEnd();
    vi.advanceTimersByTime(HOLD_MS - 1);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(kinds()).toEqual(['open', 'reqEnd']);
    slow.requestChunk(Buffer.from('late'));
    expect(kinds()).toEqual(['open', 'reqEnd', 'reqChunk']);

    sent.length = 0;
    const failed = open();
    failed.requestEnd();
    failed.fail('upstream_error', { code: 'upstream_unreachable', message: 'refused', upstreamCode: null });
    expect(kinds()).toEqual(['open', 'reqEnd', 'fail']);
    expect(new Set(sent.map((m) => ('id' in m ? m.id : null)))).toEqual(new Set([failed.id]));
  });

  it('releases every held exchange before a question to the worker, so the answer sees them', async () => {
    const { host } = startHost();
    await host.history('stats', []);
    const c = host.channel.open({
      transport: 'http',
      method: 'POST',
      path: '/v1/responses',
      query: '',
      upstreamUrl: `${DEFAULT_ROUTE.upstream}/responses`,
      requestHeaders: [['content-type', 'application/json']],
      route: DEFAULT_ROUTE,
    });
    c.requestChunk(Buffer.from(JSON.stringify({ model: 'gpt-5.5', input: [], stream: true })));
    c.requestEnd();
    // Its answer has not begun: without the release, the worker would not know the exchange yet.
    const live = (await host.query({ q: 'record', id: c.id })) as ExchangeRecord | null;
    expect(live?.id).toBe(c.id);
    expect(live?.status).toBe('streaming');
  });
});
