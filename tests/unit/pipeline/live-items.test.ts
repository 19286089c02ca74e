import { describe, expect, it } from 'vitest';
import { ResponseAssembler } from '../../../companion/capture/assembler';
import { countTextTokens } from '../../../companion/analysis/tokenizer';
import { LIVE_ITEM_CHARS, LiveItems, estimateTokens } from '../../../companion/pipeline/live-items';
import type { LiveItemDelta } from '../../../companion/protocol/live';
import { functionCall, message, plainItem, reasoning, response, type SseEvent } from '../../support/sse';

const REASONING = 'Checking the repository layout before running anything.';
const ARGS = { cmd: 'ls -la', workdir: '/tmp/project' };

/** The response's events up to (not including) the terminal one, applied in order, with a step after each. */
function stream(events: SseEvent[]) {
  const a = new ResponseAssembler();
  const live = new LiveItems(a);
  const steps = events.filter((e) => !e.type.startsWith('response.completed')).map((e) => (a.apply(e.type, e), live.step()));
  return { a, live, steps };
}

/** Every delta of every step joined per item index. */
function joined(deltas: LiveItemDelta[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const d of deltas) out.set(d.index, (out.get(d.index) ?? '') + d.delta);
  return out;
}

describe('live items of a streaming response', () => {
  const events = response([reasoning(REASONING), functionCall('exec_command', ARGS), message('Done: 3 files.')]);

  it('sends reasoning summary text, tool-call arguments and output text as their deltas arrive', () => {
    const { steps } = stream(events);
    const all = steps.flatMap((s) => s.items);
    expect(joined(all)).toEqual(
      new Map([
        [0, REASONING],
        [1, JSON.stringify(ARGS)],
        [2, 'Done: 3 files.'],
      ]),
    );
    expect(all.find((d) => d.index === 1)).toMatchObject({ kind: 'function_call', name: 'exec_command' });
    expect(all.find((d) => d.index === 0)?.kind).toBe('reasoning');
    // The first half of the arguments is out before the second half arrived.
    const half = steps.findIndex((s) => s.items.some((d) => d.index === 1 && d.delta.length > 0));
    expect(joined(steps.slice(0, half + 1).flatMap((s) => s.items)).get(1)).toBe(
      JSON.stringify(ARGS).slice(0, Math.ceil(JSON.stringify(ARGS).length / 2)),
    );
  });

  it('announces a tool call by name before any of its arguments', () => {
    const { steps } = stream(events);
    const first = steps.flatMap((s) => s.items).find((d) => d.index === 1);
    expect(first).toEqual({ index: 1, kind: 'function_call', name: 'exec_command', delta: '' });
  });

  it('does not resend what streamed when the done event repeats it', () => {
    const { steps } = stream(events);
    const doneStep =
      steps[events.findIndex((e) => e.type === 'response.output_item.done' && (e.item as { type: string }).type === 'reasoning')];
    expect(doneStep.items).toEqual([]);
  });

  it('estimates output tokens from every kind of delta, not only the text', () => {
    const { steps } = stream(events);
    // One step per event, so each step's new text is exactly that event's delta.
    const deltas = events.filter((e) => e.type.endsWith('.delta')).map((e) => String(e.delta));
    expect(new Set(events.filter((e) => e.type.endsWith('.delta')).map((e) => e.type))).toEqual(
      new Set(['response.reasoning_summary_text.delta', 'response.function_call_arguments.delta', 'response.output_text.delta']),
    );
    expect(steps.at(-1)!.tokens).toBe(deltas.map(countTextTokens).reduce((x, y) => x + y, 0));
    expect(steps.at(-1)!.tokens).toBeGreaterThan(countTextTokens('Done: 3 files.'));
    expect(steps.at(-1)!.chars).toBe(REASONING.length + JSON.stringify(ARGS).length + 'Done: 3 files.'.length);
  });

  it('counts custom tool input as it streams', () => {
    const a = new ResponseAssembler();
    const live = new LiveItems(a);
    a.apply('response.output_item.added', { output_index: 0, item: { id: 'ct_1', type: 'custom_tool_call', name: 'exec', input: '' } });
    a.apply('response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ct_1', delta: 'const x = 1;' });
    const s = live.step();
    expect(s.items).toEqual([{ index: 0, kind: 'custom_tool_call', name: 'exec', delta: 'const x = 1;' }]);
    expect(s.tokens).toBe(countTextTokens('const x = 1;'));
    expect(s.preview).toEqual({ kind: 'custom_tool_call', name: 'exec', text: 'const x = 1;' });
  });

  it('previews the latest item: the tail of reasoning, the start of a call', () => {
    const long = 'word '.repeat(100) + 'LATEST';
    const { steps } = stream(response([reasoning(long)]));
    expect(steps.at(-1)!.preview).toMatchObject({ kind: 'reasoning', name: null });
    expect(steps.at(-1)!.preview!.text.endsWith('LATEST')).toBe(true);
    expect(steps.at(-1)!.preview!.text.length).toBe(160);
    const calls = stream(response([reasoning('r'), functionCall('apply_patch', 'x'.repeat(400), { namespace: 'fs' })]));
    expect(calls.steps.at(-1)!.preview).toEqual({ kind: 'function_call', name: 'fs.apply_patch', text: 'x'.repeat(160) });
  });

  it('stops an item’s live text at the cap, says so once, and still counts all of it', () => {
    const big = 'a'.repeat(LIVE_ITEM_CHARS * 3);
    const a = new ResponseAssembler();
    const live = new LiveItems(a);
    a.apply('response.output_item.added', {
      output_index: 0,
      item: { id: 'fc_1', type: 'function_call', name: 'apply_patch', arguments: '' },
    });
    const deltas: LiveItemDelta[] = [];
    for (let i = 0; i < 6; i++) {
      a.apply('response.function_call_arguments.delta', {
        item_id: 'fc_1',
        delta: big.slice((i * big.length) / 6, ((i + 1) * big.length) / 6),
      });
      deltas.push(...live.step().items);
    }
    expect(joined(deltas).get(0)).toBe(big.slice(0, LIVE_ITEM_CHARS));
    expect(deltas.filter((d) => d.truncated)).toHaveLength(1);
    expect(live.step().chars).toBe(big.length);
  });

  it('sends nothing for items with no text of their own beyond announcing them', () => {
    const { steps } = stream(response([plainItem({ id: 'ws_1', type: 'web_search_call', status: 'completed' })]));
    expect(steps.flatMap((s) => s.items)).toEqual([{ index: 0, kind: 'other', name: null, delta: '' }]);
  });
});

describe('the live estimate', () => {
  it('counts a long unbroken run in pieces, within a token per piece of the whole count', () => {
    const run = 'x'.repeat(20_000);
    const whole = countTextTokens(run);
    const pieces = Math.ceil(run.length / 2048);
    expect(Math.abs(estimateTokens(run) - whole)).toBeLessThanOrEqual(pieces);
  });

  it('equals the whole count for text it can cut at spaces', () => {
    const prose = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
    expect(estimateTokens(prose)).toBe(countTextTokens(prose));
  });
});
