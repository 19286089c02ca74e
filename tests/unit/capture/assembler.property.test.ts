import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseAssembler } from '../../../companion/capture/assembler';
import { OutputItemSchema } from '../../../companion/protocol/exchange';
import { UsageSchema } from '../../../companion/protocol/usage';
import { awkwardText, chaoticEvent, chaoticEvents, cutAt, cuts } from '../../support/arbitraries';

const assemble = (events: { type: string }[]) => {
  const a = new ResponseAssembler();
  for (const e of events) a.apply(e.type, e);
  return a;
};

/** `text` cut at `at` into consecutive pieces (as the upstream's deltas cut it). */
const pieces = (text: string, at: number[]) => {
  const chars = Array.from(text);
  return cutAt(new Uint8Array(chars.length), at).map((c) => chars.splice(0, c.length).join(''));
};

describe('response assembly, for any events (property)', () => {
  it('assembles the same text, arguments and summary however the deltas cut them', () => {
    fc.assert(
      fc.property(awkwardText, awkwardText, awkwardText, cuts, (text, args, summary, at) => {
        const events = [
          { type: 'response.output_item.added', output_index: 0, item: { id: 'rs', type: 'reasoning', summary: [] } },
          ...pieces(summary, at).map((delta) => ({
            type: 'response.reasoning_summary_text.delta',
            item_id: 'rs',
            summary_index: 0,
            delta,
          })),
          { type: 'response.output_item.added', output_index: 1, item: { id: 'fc', type: 'function_call', name: 'f', arguments: '' } },
          ...pieces(args, at).map((delta) => ({ type: 'response.function_call_arguments.delta', output_index: 1, delta })),
          { type: 'response.output_item.added', output_index: 2, item: { id: 'm', type: 'message', role: 'assistant', content: [] } },
          ...pieces(text, at).map((delta) => ({ type: 'response.output_text.delta', item_id: 'm', content_index: 0, delta })),
        ];
        const out = assemble(events).output() as any[];
        expect(out[0].summary?.[0]?.text ?? '').toBe(summary);
        expect(out[1].arguments).toBe(args);
        expect(out[2].content?.[0]?.text ?? '').toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, keeps only typed items, and settles on the first terminal event', () => {
    fc.assert(
      fc.property(fc.oneof(chaoticEvents, fc.array(chaoticEvent, { maxLength: 20 })), (events) => {
        const a = assemble(events);
        for (const item of a.output()) expect(OutputItemSchema.safeParse(item).success).toBe(true);
        expect(typeof a.text()).toBe('string');
        if (a.usage !== null) expect(UsageSchema.safeParse(a.usage).success).toBe(true);
        const first = events.find((e) => ['response.completed', 'response.incomplete', 'response.failed'].includes(e.type));
        expect(a.terminal).toBe(first ? first.type.replace('response.', '') : null);
        if (a.terminal === 'completed') expect(a.error).toBeNull();
        if (a.terminal === 'failed' || a.terminal === 'incomplete') expect(a.error?.message).toBeTruthy();
      }),
      { numRuns: 500 },
    );
  });
});

describe('response assembly, found by the properties', () => {
  it('adds nothing for a delta that is not text, instead of throwing on it', () => {
    const events: { type: string; [field: string]: unknown }[] = [
      { type: 'response.output_item.added', item: { id: 'fc_1', type: 'function_call', name: 'f', arguments: '' }, output_index: 0 },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: { toString: null } },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":1}' },
    ];
    const a = assemble(events);
    expect(a.output()[0]).toMatchObject({ type: 'function_call', arguments: '{"a":1}' });
  });
});
