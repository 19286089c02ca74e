/**
 * A run of one side's chunks crosses to the worker as one message (one copy, joined in its slab):
 * only while that is lossless. The bytes stay in order with the capture's other messages, and a
 * response chunk keeps the millisecond it arrived.
 */
import { MessageChannel } from 'node:worker_threads';
import { afterEach, expect, it, vi } from 'vitest';
import { CaptureChannel } from '../../../companion/capture/channel';
import type { ToWorker } from '../../../companion/capture/messages';
import { RESPONSES_POST } from '../../support/flows';

afterEach(() => vi.restoreAllMocks());

function channel(): { channel: CaptureChannel; sent: { m: ToWorker; transfer?: ArrayBuffer[] }[] } {
  const sent: { m: ToWorker; transfer?: ArrayBuffer[] }[] = [];
  return { channel: new CaptureChannel((m, transfer) => void sent.push({ m, transfer }), 1 << 20, 1 << 20), sent };
}

/** Each message's kind and, for bytes, their text and time. */
const shown = (sent: { m: ToWorker }[]) =>
  sent.map(({ m }) =>
    m.t === 'chunk'
      ? `chunk ${Buffer.from(m.chunk).toString()} @${m.at}`
      : m.t === 'reqChunk'
        ? `reqChunk ${Buffer.from(m.chunk).toString()}`
        : m.t,
  );

it("joins a response's chunks of the same millisecond into one message, and keeps each millisecond's own", () => {
  const { channel: ch, sent } = channel();
  const now = vi.spyOn(Date, 'now').mockReturnValue(1000);
  const c = ch.open(RESPONSES_POST);
  c.requestEnd();
  c.head(200, [], 1000);
  c.chunk(Buffer.from('data: a\n'));
  c.chunk(Buffer.from('\ndata: b'));
  now.mockReturnValue(1001);
  c.chunk(Buffer.from('\n\n'));
  c.end();
  expect(shown(sent)).toEqual(['open', 'reqEnd', 'head', 'chunk data: a\n\ndata: b @1000', 'chunk \n\n @1001', 'end']);
  // The joined bytes are still one transfer of their slab.
  expect(sent[3].transfer).toEqual([(sent[3].m as { chunk: Uint8Array }).chunk.buffer]);
});

it('never joins bytes across another message of the same exchange, so the worker hears them in order', () => {
  const { channel: ch, sent } = channel();
  const c = ch.open(RESPONSES_POST);
  c.requestChunk(Buffer.from('{"model":'));
  c.requestChunk(Buffer.from('"gpt-5.5",'));
  c.head(200, [], Date.now()); // the upstream answered before the body's end was heard
  c.requestChunk(Buffer.from('"input":[]}'));
  c.requestEnd();
  expect(shown(sent)).toEqual(['open', 'reqChunk {"model":"gpt-5.5",', 'head', 'reqChunk "input":[]}', 'reqEnd']);
});

it("does not join two exchanges' bytes, nor bytes whose slab has already been posted", async () => {
  const { channel: ch, sent } = channel();
  vi.spyOn(Date, 'now').mockReturnValue(1000);
  const a = ch.open(RESPONSES_POST);
  const b = ch.open(RESPONSES_POST);
  a.chunk(Buffer.from('a1'));
  b.chunk(Buffer.from('b1')); // between a1 and a2 in the slab
  a.chunk(Buffer.from('a2'));
  expect(shown(sent).slice(2)).toEqual(['chunk a1 @1000', 'chunk b1 @1000', 'chunk a2 @1000']);
  // The loop's turn ends: the host posts what was sent, moving the slab to the worker.
  const { port1, port2 } = new MessageChannel();
  const arrived = new Promise<ToWorker[]>((r) => port2.once('message', r));
  port1.postMessage(
    sent.map(({ m }) => m),
    [...new Set(sent.flatMap(({ transfer }) => transfer ?? []))],
  );
  b.chunk(Buffer.from('b2'));
  b.chunk(Buffer.from('b3'));
  expect(shown(sent).slice(5)).toEqual(['chunk b2b3 @1000']);
  const posted = await arrived;
  expect(posted.flatMap((m) => (m.t === 'chunk' ? [Buffer.from(m.chunk).toString()] : []))).toEqual(['a1', 'b1', 'a2']);
  port1.close();
});
