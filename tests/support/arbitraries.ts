/**
 * fast-check arbitraries for the property tests: chunkings of a byte stream, Responses API
 * event sequences shaped like the real ones (built with the same builders as the fixtures'
 * fake upstream), and chaotic sequences that mix them with arbitrary events. Test-only.
 */
import fc from 'fast-check';
import { functionCall, message, plainItem, reasoning, response, type SseEvent } from './sse';

/** Cut points as fractions of a length, so a failing case prints short (see `cutAt`). */
export const cuts = fc.array(fc.integer({ min: 1, max: 999_999 }), { maxLength: 40 });

/** `buf` cut into consecutive non-empty pieces at the given fractions (millionths) of its length. */
export function cutAt(buf: Uint8Array, at: number[]): Uint8Array[] {
  const points = [...new Set(at.map((a) => Math.floor((a / 1_000_000) * buf.length)))].filter((p) => p > 0 && p < buf.length);
  points.sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, buf.length]) {
    out.push(buf.subarray(prev, p));
    prev = p;
  }
  return out;
}

/** Text with multi-byte characters, line breaks and SSE-looking fragments, which must all survive. */
export const awkwardText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '世', '🙂', '\n', '\r', '\r\n', 'data: ', 'event: ', ':', ' ', '"', '\\'), maxLength: 30 }),
);

const item = fc.oneof(
  fc
    .record({ text: awkwardText, pieces: fc.integer({ min: 1, max: 6 }) })
    .map(({ text, pieces }) => ({ kind: 'message' as const, text, pieces })),
  fc.record({ name: fc.constantFrom('exec_command', 'apply_patch', 'spawn_agent'), args: fc.jsonValue({ maxDepth: 2 }) }).map((v) => ({
    kind: 'call' as const,
    ...v,
  })),
  awkwardText.map((summary) => ({ kind: 'reasoning' as const, summary })),
  fc.constantFrom('web_search_call', 'compaction', 'some_future_item').map((type) => ({ kind: 'plain' as const, type })),
);

/** The value type of an arbitrary. */
export type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

export interface ResponseSpecValue {
  items: ValueOf<typeof item>[];
  end: 'completed' | 'incomplete' | 'failed' | 'none';
  usage: { input: number; cached: number; output: number; reasoning: number } | null;
}

/** A well-formed response: items streamed in order, then the terminal event (or none). */
export const responseSpec: fc.Arbitrary<ResponseSpecValue> = fc.record({
  items: fc.array(item, { maxLength: 4 }),
  end: fc.constantFrom('completed', 'incomplete', 'failed', 'none'),
  usage: fc.option(
    fc
      .record({ input: fc.nat(200_000), output: fc.nat(50_000) })
      .chain(({ input, output }) =>
        fc.record({ input: fc.constant(input), cached: fc.nat(input), output: fc.constant(output), reasoning: fc.nat(output) }),
      ),
    { nil: null },
  ),
});

/** The events of a response spec, with ids unique per item (and per response, given `prefix`). */
export function responseEvents(spec: ResponseSpecValue, responseId = 'resp_001', prefix = ''): SseEvent[] {
  const built = spec.items.map((it, i): { events: SseEvent[]; item: Record<string, unknown> } => {
    switch (it.kind) {
      case 'message':
        return message(it.text, { id: `${prefix}msg_${i}`, pieces: it.pieces });
      case 'call':
        return functionCall(it.name, it.args, { id: `${prefix}fc_${i}`, callId: `${prefix}call_${i}` });
      case 'reasoning':
        return reasoning(it.summary, { id: `${prefix}rs_${i}` });
      default:
        return plainItem({ id: `${prefix}it_${i}`, type: it.type, status: 'completed' });
    }
  });
  return response(built, { id: responseId, end: spec.end, usage: spec.usage });
}

const EVENT_TYPES = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.output_item.done',
  'response.output_text.delta',
  'response.refusal.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
  'codex.rate_limits',
  'keepalive',
];

/** One event of any known (or unknown) type with arbitrary, often wrong, data. */
export const chaoticEvent: fc.Arbitrary<SseEvent> = fc
  .record({
    // Any name an SSE `event:` line can carry (no line breaks, not empty).
    type: fc.oneof(fc.constantFrom(...EVENT_TYPES), fc.stringMatching(/^[a-z][\w.]{0,11}$/)),
    output_index: fc.option(fc.oneof(fc.nat(5), fc.constant(-1), fc.double()), { nil: undefined }),
    content_index: fc.option(fc.oneof(fc.nat(3), fc.string({ maxLength: 3 })), { nil: undefined }),
    item_id: fc.option(fc.constantFrom('msg_0', 'fc_1', 'nope'), { nil: undefined }),
    delta: fc.option(fc.oneof(awkwardText, fc.jsonValue({ maxDepth: 1 })), { nil: undefined }),
    item: fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ id: fc.constantFrom('msg_0', 'fc_1'), type: fc.string() })), {
      nil: undefined,
    }),
    response: fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined }),
    message: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
  })
  .map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as SseEvent);

/** Well-formed responses with arbitrary events spliced in anywhere. */
export const chaoticEvents: fc.Arbitrary<SseEvent[]> = fc
  .tuple(responseSpec, fc.array(fc.tuple(fc.nat(), chaoticEvent), { maxLength: 8 }))
  .map(([spec, extra]) => {
    const events = responseEvents(spec);
    for (const [at, e] of extra) events.splice(at % (events.length + 1), 0, e);
    return events;
  });
