import { describe, expect, it } from 'vitest';
import { SseDecoder, type RawSseEvent } from '../../../companion/capture/sse';
import { everySplit, feedInChunks, seededSplits } from '../../support/chunks';
import { fixtureSse, httpFixtureNames, loadFixture } from '../../support/fixtures';

function decode(chunks: Uint8Array[], maxEventChars?: number) {
  const events: RawSseEvent[] = [];
  const errors: string[] = [];
  const d = new SseDecoder({ onEvent: (e) => events.push(e), onError: (m) => errors.push(m) }, maxEventChars);
  feedInChunks(
    chunks,
    (c) => d.push(c),
    () => d.end(),
  );
  return { events, errors };
}

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('SSE decoding for capture', () => {
  it('decodes every fixture stream into exactly the events the fake upstream sent', () => {
    for (const name of httpFixtureNames()) {
      const f = loadFixture(name);
      const sent = f.response_sent_by_fake_upstream.sse_events ?? [];
      const { events } = decode([fixtureSse(f)]);
      expect(
        events.map((e) => JSON.parse(e.data)),
        name,
      ).toEqual(sent);
      expect(
        events.every((e, i) => e.event === sent[i].type && !e.unterminated),
        name,
      ).toBe(true);
    }
  });

  it('gives the same events at every split point of a stream', () => {
    const buf = fixtureSse(loadFixture('b-tool-call-1'));
    const whole = decode([buf]).events;
    for (const chunks of everySplit(buf)) expect(decode(chunks).events).toEqual(whole);
  });

  it('gives the same events for seeded random chunkings of every fixture, LF, CRLF and CR', () => {
    for (const name of httpFixtureNames()) {
      const f = loadFixture(name);
      const whole = decode([fixtureSse(f)]).events;
      for (const framing of ['lf', 'crlf', 'cr'] as const) {
        for (const chunks of seededSplits(fixtureSse(f, framing), 25, name.length)) expect(decode(chunks).events, name).toEqual(whole);
      }
    }
  });

  it('keeps a multi-byte character whole when a chunk boundary falls inside it', () => {
    const text = 'data: {"delta":"héllo 世界 🙂"}\n\n';
    const buf = bytes(text);
    for (const chunks of everySplit(buf)) {
      const { events } = decode(chunks);
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0].data).delta).toBe('héllo 世界 🙂');
    }
  });

  it('joins multi-line data with newlines and ignores comment lines', () => {
    const { events } = decode([bytes(': keep-alive\nevent: x\ndata: line one\ndata: line two\n\n: another comment\n\n')]);
    expect(events).toEqual([{ event: 'x', data: 'line one\nline two', unterminated: false }]);
  });

  it('accepts bare CR line ends and a leading byte-order mark', () => {
    const { events } = decode([bytes('\ufeffdata: a\r\rdata: b\r\n\r\n')]);
    expect(events.map((e) => e.data)).toEqual(['a', 'b']);
  });

  it('takes a CR at the very end of the stream as a line end, so the last event is complete', () => {
    const { events } = decode([bytes('data: a\r\rdata: b\r\r')]);
    expect(events).toEqual([
      { event: undefined, data: 'a', unterminated: false },
      { event: undefined, data: 'b', unterminated: false },
    ]);
  });

  it('ends an event at its blank CR line even when the last chunk after it has no line break', () => {
    const { events } = decode([bytes('data: a\r\r'), bytes(': trailing comment')]);
    expect(events).toEqual([{ event: undefined, data: 'a', unterminated: false }]);
  });

  it('still marks an event whose data line ends in a final CR as unterminated', () => {
    const { events } = decode([bytes('data: a\r\rdata: b\r')]);
    expect(events.map((e) => [e.data, e.unterminated])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('surfaces an event cut off by the end of the stream, marked unterminated', () => {
    const { events } = decode([bytes('data: {"type":"response.created"}\n\ndata: {"type":"response.outp')]);
    expect(events).toHaveLength(2);
    expect(events[0].unterminated).toBe(false);
    expect(events[1]).toEqual({ event: undefined, data: '{"type":"response.outp', unterminated: true });
  });

  it('marks an event whose last line ended but whose blank line never came as unterminated', () => {
    const { events } = decode([bytes('data: a\n\ndata: b\n')]);
    expect(events).toEqual([
      { event: undefined, data: 'a', unterminated: false },
      { event: undefined, data: 'b', unterminated: true },
    ]);
  });

  it('reports an unknown field without losing the events around it', () => {
    const { events, errors } = decode([bytes('data: a\n\nbogus: 1\ndata: b\n\n')]);
    expect(events.map((e) => e.data)).toEqual(['a', 'b']);
    expect(errors).toEqual(['ignored unknown SSE field "bogus"']);
  });

  it('stops parsing with an error when one event grows past the buffer limit', () => {
    const { events, errors } = decode([bytes('data: ok\n\n'), bytes('data: ' + 'x'.repeat(2000)), bytes('\n\ndata: later\n\n')], 1000);
    expect(events.map((e) => e.data)).toEqual(['ok']);
    expect(errors[0]).toMatch(/max buffer size/);
  });

  it('passes the parser message on for an invalid retry field and keeps decoding', () => {
    const { events, errors } = decode([bytes('retry: soon\ndata: a\n\n')]);
    expect(events).toEqual([{ event: undefined, data: 'a', unterminated: false }]);
    expect(errors).toEqual(['Invalid `retry` value: "soon"']);
  });

  it('ends a character cut off by the end of the stream as U+FFFD in the last event', () => {
    const euro = bytes('€');
    const { events } = decode([bytes('data: 1\n\ndata: a'), euro.subarray(0, 2)]);
    expect(events).toEqual([
      { event: undefined, data: '1', unterminated: false },
      { event: undefined, data: 'a\ufffd', unterminated: true },
    ]);
  });

  it('decodes nothing from an empty stream', () => {
    expect(decode([])).toEqual({ events: [], errors: [] });
    expect(decode([new Uint8Array(0), new Uint8Array(0)])).toEqual({ events: [], errors: [] });
  });
});
