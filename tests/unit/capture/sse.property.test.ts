import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type RawSseEvent } from '../../../companion/capture/sse';
import { chaoticEvents, cutAt, cuts, responseEvents, responseSpec } from '../../support/arbitraries';
import { encodeSse } from '../../support/sse';

function decode(chunks: Uint8Array[]): { events: RawSseEvent[]; errors: string[] } {
  const events: RawSseEvent[] = [];
  const errors: string[] = [];
  const d = new SseDecoder({ onEvent: (e) => events.push(e), onError: (m) => errors.push(m) });
  for (const c of chunks) d.push(c);
  d.end();
  return { events, errors };
}

const framing = fc.constantFrom('lf' as const, 'crlf' as const, 'cr' as const);

/** Bytes rich in what SSE framing is made of, plus anything else (invalid UTF-8 included). */
const sseLikeBytes = fc
  .array(
    fc.oneof(
      fc
        .constantFrom('\n', '\r', '\r\n', 'data: ', 'data:', 'event: x', ': c', 'id: 1', 'retry: 5', '{"a":1}', 'é', '🙂', '\ufeff')
        .map((t) => Buffer.from(t)),
      fc.uint8Array({ minLength: 1, maxLength: 4 }).map((u) => Buffer.from(u)),
    ),
    { maxLength: 60 },
  )
  .map((parts) => new Uint8Array(Buffer.concat(parts)));

describe('SSE decoding, for any input and any chunking (property)', () => {
  it('gives back exactly the events sent, in every line-end framing and every chunking', () => {
    fc.assert(
      fc.property(fc.oneof(responseSpec.map(responseEvents), chaoticEvents), framing, cuts, (sent, nl, at) => {
        const { events } = decode(cutAt(Buffer.from(encodeSse(sent, nl)), at));
        expect(events.map((e) => ({ event: e.event, data: JSON.parse(e.data) as unknown, unterminated: e.unterminated }))).toEqual(
          // As JSON carries them (a non-finite number arrives as null).
          sent.map((e) => ({ event: e.type, data: JSON.parse(JSON.stringify(e)) as unknown, unterminated: false })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary bytes and decodes them the same however they are split', () => {
    fc.assert(
      fc.property(sseLikeBytes, cuts, (buf, at) => {
        expect(decode(cutAt(buf, at))).toEqual(decode([buf]));
      }),
      { numRuns: 500 },
    );
  });
});
