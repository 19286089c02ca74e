/**
 * The main thread's end of the capture worker sends what one turn of its loop captured as one
 * message, and a run of one side's chunks as one copy: a streamed answer arrives in many small
 * chunks, and a postMessage (or a message) per chunk cost the forwarding thread more than copying
 * the bytes. Order, bytes and arrival times must survive the batching.
 */
import fs from 'node:fs';
import { MessagePort } from 'node:worker_threads';
import { afterEach, expect, it, vi } from 'vitest';
import { CaptureHost } from '../../../companion/pipeline/host';
import type { FromWorker, ToWorker } from '../../../companion/capture/messages';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { createLogger } from '../../../companion/lib/log';
import { tempHome } from '../../support/companion';
import { RESPONSES_POST } from '../../support/flows';
import { encodeSse, message, response } from '../../support/sse';

const homes: string[] = [];
const hosts: CaptureHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close(1000);
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** Main thread → worker messages have these types; the worker's answers have others (a batch of them too). */
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

function isToWorker(m: ToWorker): boolean {
  return m.t === 'batch' ? m.messages.every(isToWorker) : TO_WORKER.has(m.t);
}

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
  const c = host.channel.open(RESPONSES_POST);
  for (let at = 0; at < body.length; at += 100) c.requestChunk(body.subarray(at, at + 100));
  c.requestEnd();
  c.head(200, [['content-type', 'text/event-stream']], Date.now());
  for (let at = 0; at < sse.length; at += 64) c.chunk(sse.subarray(at, at + 64));
  c.end();
  return c.id;
}

it("posts one turn's capture messages as one batch, in order, each side's bytes joined, and the worker stores the exchange whole", async () => {
  const { host, seen } = startHost();
  // The worker starts on the first message; a history call waits for it.
  await host.history('stats', []);
  // What each message's bytes were when posted: the transfer detaches them here.
  const bytesPosted = new Map<Uint8Array, Buffer>();
  const postMessage = MessagePort.prototype.postMessage;
  const posted = vi.spyOn(MessagePort.prototype, 'postMessage').mockImplementation(function (this: MessagePort, m, transfer) {
    const w = m as ToWorker;
    for (const x of w.t === 'batch' ? w.messages : [w])
      if (x.t === 'chunk' || x.t === 'reqChunk') bytesPosted.set(x.chunk, Buffer.from(x.chunk));
    postMessage.call(this, m, transfer as Parameters<typeof postMessage>[1]);
  });
  const body = Buffer.from(
    JSON.stringify({
      model: 'gpt-5.5',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      stream: true,
    }),
  );
  const text = 'An answer streamed in many small chunks. '.repeat(10);
  const sse = Buffer.from(encodeSse(response([message(text, { pieces: 40 })])));
  // All within one millisecond, so the response's chunks may join as the request's do.
  const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now());
  const id = captureExchange(host, body, sse);
  now.mockRestore();
  await new Promise((r) => setImmediate(r));
  const toWorker = posted.mock.calls.map(([m]) => m as ToWorker).filter(isToWorker);
  expect(toWorker).toHaveLength(1);
  const batch = toWorker[0];
  if (batch.t !== 'batch') throw new Error(`expected a batch, got ${batch.t}`);
  // The request's many chunks cross as one message, and so do the response's.
  expect(batch.messages.map((m) => m.t)).toEqual(['open', 'reqChunk', 'reqEnd', 'head', 'chunk', 'end']);
  const bytesOf = (t: 'reqChunk' | 'chunk') => batch.messages.flatMap((m) => (m.t === t ? [m.chunk] : []));
  expect(bytesPosted.get(bytesOf('reqChunk')[0])?.equals(body)).toBe(true);
  expect(bytesPosted.get(bytesOf('chunk')[0])?.equals(sse)).toBe(true);
  // The copies share one slab, which moved with the one message (named once), not copied again.
  const transfer = posted.mock.calls.find(([m]) => m === batch)?.[1] as ArrayBuffer[];
  expect(transfer).toHaveLength(1);
  for (const c of [...bytesOf('reqChunk'), ...bytesOf('chunk')]) expect(c.buffer).toBe(transfer[0]);
  posted.mockRestore();
  for (const until = Date.now() + 10_000; !seen.some((m) => m.t === 'analysed' && m.id === id) && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 20));
  const record = (await host.history('get', [id])) as ExchangeRecord;
  expect(record.request.bodyBytes).toBe(body.length);
  expect(record.request.body).toEqual(JSON.parse(body.toString()));
  expect(record.status).toBe('completed');
  expect(record.response.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text }] }]);
});

it("ends the request before the response's end when the body's end has not been heard, and stores the exchange with it", async () => {
  const { host, seen } = startHost();
  await host.history('stats', []);
  const posted = vi.spyOn(MessagePort.prototype, 'postMessage');
  const body = Buffer.from(JSON.stringify({ model: 'gpt-5.5', input: [], stream: true }));
  const c = host.channel.open(RESPONSES_POST);
  // The upstream had the whole body and answered while the body's generator waited to be asked for more.
  c.requestChunk(body);
  c.head(200, [['content-type', 'text/event-stream']], Date.now());
  c.chunk(Buffer.from(encodeSse(response([message('ok')]))));
  c.end();
  // The generator finishes late: nothing more goes to the worker.
  c.requestChunk(Buffer.from('late'));
  c.requestEnd();
  await new Promise((r) => setImmediate(r));
  const sent = posted.mock.calls.flatMap(([m]) => {
    const w = m as ToWorker;
    return !isToWorker(w) ? [] : w.t === 'batch' ? w.messages : [w];
  });
  posted.mockRestore();
  expect(sent.filter((m) => 'id' in m && m.id === c.id).map((m) => m.t)).toEqual(['open', 'reqChunk', 'head', 'chunk', 'reqEnd', 'end']);
  for (const until = Date.now() + 10_000; !seen.some((m) => m.t === 'analysed' && m.id === c.id) && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 20));
  const record = (await host.history('get', [c.id])) as ExchangeRecord;
  expect(record.status).toBe('completed');
  expect(record.request.bodyBytes).toBe(body.length);
  expect(record.request.body).toEqual(JSON.parse(body.toString()));
});
