import { describe, expect, it } from 'vitest';
import { ResponseAssembler } from '../../../companion/capture/assembler';
import { httpFixtureNames, loadFixture } from '../../support/fixtures';

type Ev = { type: string; [field: string]: unknown };

const assemble = (events: Ev[]) => {
  const a = new ResponseAssembler();
  for (const e of events) a.apply(e.type, e);
  return a;
};

const added = (output_index: number | undefined, item: Record<string, unknown>): Ev =>
  output_index === undefined ? { type: 'response.output_item.added', item } : { type: 'response.output_item.added', output_index, item };

const msg = (id: string, content?: unknown[]) => ({ id, type: 'message', role: 'assistant', ...(content ? { content } : {}) });

const completed = (response: Record<string, unknown> = {}): Ev => ({ type: 'response.completed', response: { id: 'resp_1', ...response } });

describe('response assembly of captured Codex 0.169 streams', () => {
  it('ends every fixture with the terminal event output, usage and id, and no error', () => {
    for (const name of httpFixtureNames()) {
      const events = loadFixture(name).response_sent_by_fake_upstream.sse_events;
      if (!events) continue;
      const terminal = events.at(-1) as { type: string; response: { id: string; model: string; output: unknown[] } };
      const a = assemble(events);
      expect(a.terminal, name).toBe('completed');
      expect(a.responseId, name).toBe(terminal.response.id);
      expect(a.model, name).toBe(terminal.response.model);
      expect(a.output(), name).toEqual(terminal.response.output);
      expect(a.error, name).toBeNull();
    }
  });

  it('streams the same items the terminal event then confirms', () => {
    const events = loadFixture('c-reasoning-2').response_sent_by_fake_upstream.sse_events!;
    const terminal = events.at(-1) as unknown as { response: { output: unknown[] } };
    const a = assemble(events.slice(0, -1));
    expect(a.terminal).toBeNull();
    expect(a.output()).toEqual(terminal.response.output);
    expect(a.streamedItems().map(([i]) => i)).toEqual(terminal.response.output.map((_, i) => i));
  });
});

describe('response assembly, response fields', () => {
  it('takes id and model from created, in_progress and queued events', () => {
    for (const type of ['response.created', 'response.in_progress', 'response.queued']) {
      const a = assemble([{ type, response: { id: 'resp_x', model: 'gpt-5-codex' } }]);
      expect([a.responseId, a.model], type).toEqual(['resp_x', 'gpt-5-codex']);
    }
  });

  it('keeps the last known id and model when a later event leaves them out or changes them', () => {
    const a = new ResponseAssembler();
    a.apply('response.created', { response: { id: 'resp_1', model: 'm1' } });
    a.apply('response.in_progress', { response: { id: 5, model: 7 } });
    expect([a.responseId, a.model]).toEqual(['resp_1', 'm1']);
    a.apply('response.in_progress', { response: { id: 'resp_2', model: 'm2' } });
    expect([a.responseId, a.model]).toEqual(['resp_2', 'm2']);
    a.apply('response.completed', { response: {} });
    expect([a.responseId, a.model]).toEqual(['resp_2', 'm2']);
  });

  it('ignores a response field that is not an object', () => {
    const a = assemble([{ type: 'response.created', response: 'resp_1' }]);
    expect([a.responseId, a.model]).toEqual([null, null]);
  });

  it('starts empty', () => {
    const a = new ResponseAssembler();
    expect([a.responseId, a.model, a.terminal, a.usage, a.error]).toEqual([null, null, null, null, null]);
    expect(a.output()).toEqual([]);
    expect(a.text()).toBe('');
    expect(a.streamedItems()).toEqual([]);
  });
});

describe('response assembly, output items', () => {
  it('orders items by output_index, whatever order they arrive in', () => {
    const a = assemble([added(2, msg('c')), added(0, msg('a')), added(1, msg('b'))]);
    expect(a.output().map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(a.streamedItems().map(([i, item]) => [i, item.id])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
  });

  it('places an item without output_index after those already there', () => {
    const a = assemble([added(0, msg('a')), added(undefined, msg('b')), added(undefined, msg('c'))]);
    expect(a.streamedItems().map(([i, item]) => [i, item.id])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
  });

  it('lets output_item.done replace the streamed item at its index', () => {
    const a = assemble([
      added(0, msg('m', [])),
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'partial' },
      { type: 'response.output_item.done', output_index: 0, item: msg('m', [{ type: 'output_text', text: 'final', annotations: [] }]) },
    ]);
    expect(a.text()).toBe('final');
  });

  it('keeps no item without a type', () => {
    const a = assemble([
      added(0, { id: 'x' }),
      added(1, { id: 'y', type: 3 }),
      { type: 'response.output_item.added', output_index: 2, item: 'text' },
    ]);
    expect(a.output()).toEqual([]);
  });

  it('copies items so deltas never change the events they came from', () => {
    const event = added(0, msg('m', []));
    const a = assemble([event, { type: 'response.output_text.delta', output_index: 0, delta: 'hi' }]);
    expect(a.text()).toBe('hi');
    expect(event.item).toEqual(msg('m', []));
  });

  it('prefers the terminal event output to what streamed', () => {
    const final = [msg('m2', [{ type: 'output_text', text: 'from terminal', annotations: [] }])];
    const a = assemble([added(0, msg('m1', [{ type: 'output_text', text: 'streamed' }])), completed({ output: final })]);
    expect(a.output()).toEqual(final);
    expect(a.text()).toBe('from terminal');
  });

  it('keeps what streamed when the terminal output is empty or missing', () => {
    const streamed = [added(0, msg('m', [{ type: 'output_text', text: 'streamed' }]))];
    expect(assemble([...streamed, completed({ output: [] })]).text()).toBe('streamed');
    expect(assemble([...streamed, completed({ output: 'none' })]).text()).toBe('streamed');
    expect(assemble([...streamed, completed()]).text()).toBe('streamed');
  });

  it('keeps only typed items of the terminal output, copied', () => {
    const item = msg('m', [{ type: 'output_text', text: 't' }]);
    const event = completed({ output: [{ id: 'untyped' }, item, null] });
    const a = assemble([event]);
    expect(a.output()).toEqual([item]);
    expect(a.output()[0]).not.toBe(item);
  });
});

describe('response assembly, deltas', () => {
  it('creates the text part of a message on its first delta and appends the rest', () => {
    const a = assemble([
      added(0, msg('m')),
      { type: 'response.output_text.delta', item_id: 'm', delta: 'Hel' },
      { type: 'response.output_text.delta', item_id: 'm', content_index: 0, delta: 'lo' },
    ]);
    expect(a.output()[0].content).toEqual([{ type: 'output_text', text: 'Hello', annotations: [] }]);
  });

  it('appends text to the part content_index names', () => {
    const a = assemble([
      added(0, msg('m', [{ type: 'output_text', text: 'a', annotations: [] }])),
      { type: 'response.output_text.delta', output_index: 0, content_index: 1, delta: 'b' },
      { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'c' },
    ]);
    expect(a.output()[0].content).toEqual([
      { type: 'output_text', text: 'ac', annotations: [] },
      { type: 'output_text', text: 'b', annotations: [] },
    ]);
    expect(a.text()).toBe('acb');
  });

  it('builds a refusal part from refusal deltas', () => {
    const a = assemble([
      added(0, msg('m', [])),
      { type: 'response.refusal.delta', output_index: 0, delta: 'I can' },
      { type: 'response.refusal.delta', output_index: 0, delta: 'not' },
    ]);
    expect(a.output()[0].content).toEqual([{ type: 'refusal', refusal: 'I cannot' }]);
    expect(a.text()).toBe('');
  });

  it('builds reasoning summary parts by summary_index', () => {
    const a = assemble([
      added(0, { id: 'rs', type: 'reasoning' }),
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs', delta: 'one' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs', summary_index: 1, delta: 'two' },
      { type: 'response.reasoning_summary_text.delta', item_id: 'rs', summary_index: 1, delta: '!' },
    ]);
    expect(a.output()[0].summary).toEqual([
      { type: 'summary_text', text: 'one' },
      { type: 'summary_text', text: 'two!' },
    ]);
  });

  it('builds reasoning text parts by content_index, apart from the summary', () => {
    const a = assemble([
      added(0, { id: 'rs', type: 'reasoning', summary: [] }),
      { type: 'response.reasoning_text.delta', output_index: 0, delta: 'think' },
      { type: 'response.reasoning_text.delta', output_index: 0, delta: 'ing' },
      { type: 'response.reasoning_text.delta', output_index: 0, content_index: 1, delta: 'more' },
    ]);
    expect(a.output()[0]).toEqual({
      id: 'rs',
      type: 'reasoning',
      summary: [],
      content: [
        { type: 'reasoning_text', text: 'thinking' },
        { type: 'reasoning_text', text: 'more' },
      ],
    });
    // Reasoning is not the assistant's text.
    expect(a.text()).toBe('');
  });

  it('appends function call arguments and custom tool input, starting from nothing', () => {
    const a = assemble([
      added(0, { id: 'fc', type: 'function_call', name: 'f' }),
      added(1, { id: 'ct', type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin' }),
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc', delta: '1}' },
      { type: 'response.custom_tool_call_input.delta', output_index: 1, delta: ' Patch' },
    ]);
    expect(a.output()).toEqual([
      { id: 'fc', type: 'function_call', name: 'f', arguments: '{"a":1}' },
      { id: 'ct', type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' },
    ]);
  });

  it('appends a number delta as its digits and anything else as nothing', () => {
    const a = assemble([
      added(0, { id: 'fc', type: 'function_call', name: 'f', arguments: '' }),
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: 4 },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: 2.5 },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: null },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: ['x'] },
    ]);
    expect(a.output()[0].arguments).toBe('42.5');
  });

  it('starts over from a part or field whose current value is not text', () => {
    const a = assemble([
      added(0, msg('m', [{ type: 'output_text', text: null }])),
      added(1, { id: 'fc', type: 'function_call', arguments: { a: 1 } }),
      added(2, { id: 'rs', type: 'reasoning', summary: 'x', content: 'y' }),
      { type: 'response.output_text.delta', output_index: 0, delta: 'a' },
      { type: 'response.function_call_arguments.delta', output_index: 1, delta: 'b' },
      { type: 'response.reasoning_summary_text.delta', output_index: 2, delta: 'c' },
      { type: 'response.reasoning_text.delta', output_index: 2, delta: 'd' },
    ]);
    const out = a.output();
    expect(out[0].content).toEqual([{ type: 'output_text', text: 'a' }]);
    expect(out[1].arguments).toBe('b');
    expect(out[2].summary).toEqual([{ type: 'summary_text', text: 'c' }]);
    expect(out[2].content).toEqual([{ type: 'reasoning_text', text: 'd' }]);
  });

  it('drops a delta for an item it cannot find', () => {
    const a = assemble([
      added(0, msg('m', [])),
      { type: 'response.output_text.delta', output_index: 5, delta: 'lost' },
      { type: 'response.output_text.delta', item_id: 'other', delta: 'lost' },
      { type: 'response.output_text.delta', item_id: '', delta: 'lost' },
      { type: 'response.output_text.delta', delta: 'lost' },
      { type: 'response.refusal.delta', item_id: 'other', delta: 'lost' },
      { type: 'response.reasoning_summary_text.delta', output_index: 3, delta: 'lost' },
      { type: 'response.reasoning_text.delta', item_id: 'other', delta: 'lost' },
      { type: 'response.function_call_arguments.delta', output_index: 9, delta: 'lost' },
      { type: 'response.custom_tool_call_input.delta', item_id: 'x', delta: 'lost' },
    ]);
    expect(a.output()).toEqual([msg('m', [])]);
  });

  it('applies a delta that names no item to none, not even to an item without an id', () => {
    const a = assemble([
      added(0, { id: null, type: 'function_call', arguments: '' }),
      { type: 'response.function_call_arguments.delta', delta: 'lost' },
    ]);
    expect(a.output()).toEqual([{ id: null, type: 'function_call', arguments: '' }]);
  });

  it('goes by output_index over item_id when an event has both', () => {
    const a = assemble([
      added(0, msg('a', [])),
      added(1, msg('b', [])),
      { type: 'response.output_text.delta', output_index: 1, item_id: 'a', delta: 'to b' },
    ]);
    expect(a.output().map((i) => [i.id, i.content])).toEqual([
      ['a', []],
      ['b', [{ type: 'output_text', text: 'to b', annotations: [] }]],
    ]);
  });

  it('finds an item by item_id among several', () => {
    const a = assemble([added(0, msg('a', [])), added(1, msg('b', [])), { type: 'response.output_text.delta', item_id: 'b', delta: 'B' }]);
    expect(a.output().map((i) => [i.id, i.content])).toEqual([
      ['a', []],
      ['b', [{ type: 'output_text', text: 'B', annotations: [] }]],
    ]);
  });
});

describe('response assembly, assistant text', () => {
  it('joins the text of every message part, in order, and nothing else', () => {
    const a = assemble([
      added(0, msg('m1', [{ type: 'output_text', text: 'one ' }, { type: 'output_text', text: 5 }, 'loose', null])),
      added(1, { id: 'fc', type: 'function_call', text: 'not a message' }),
      added(2, { id: 'm2', type: 'message', content: 'not a list' }),
      added(3, msg('m3', [{ type: 'output_text', text: 'two' }])),
    ]);
    expect(a.text()).toBe('one two');
  });
});

describe('response assembly, terminal state and errors', () => {
  it('names the terminal state after the terminal event', () => {
    expect(assemble([completed()]).terminal).toBe('completed');
    expect(assemble([{ type: 'response.incomplete', response: {} }]).terminal).toBe('incomplete');
    expect(assemble([{ type: 'response.failed', response: {} }]).terminal).toBe('failed');
  });

  it('changes nothing after the terminal event', () => {
    const a = assemble([
      added(0, msg('m', [])),
      { type: 'response.output_text.delta', output_index: 0, delta: 'done' },
      completed({ output: [] }),
      { type: 'response.output_text.delta', output_index: 0, delta: ' and more' },
      added(1, msg('late', [])),
      { type: 'response.created', response: { id: 'resp_late', model: 'late' } },
      { type: 'error', message: 'late error' },
      { type: 'response.failed', response: {} },
    ]);
    expect(a.terminal).toBe('completed');
    expect(a.text()).toBe('done');
    expect(a.output().map((i) => i.id)).toEqual(['m']);
    expect(a.responseId).toBe('resp_1');
    expect(a.error).toBeNull();
  });

  it('reads the usage of the terminal response', () => {
    const a = assemble([completed({ usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 } })]);
    expect(a.usage).toEqual({
      inputTokens: 10,
      cachedTokens: null,
      cacheWriteTokens: null,
      outputTokens: 2,
      reasoningTokens: null,
      totalTokens: 12,
    });
    expect(assemble([completed()]).usage).toBeNull();
  });

  it('forgets an error event once the response completes', () => {
    const a = assemble([{ type: 'error', message: 'transient' }, completed()]);
    expect(a.error).toBeNull();
  });

  it('reports a failed response with the upstream message and code', () => {
    const failed = (error: unknown) => assemble([{ type: 'response.failed', response: { error } }]).error;
    expect(failed({ code: 'server_error', message: 'boom' })).toEqual({
      code: 'response_failed',
      message: 'boom',
      upstreamCode: 'server_error',
    });
    expect(failed({ type: 'invalid_request', message: '' })).toEqual({
      code: 'response_failed',
      message: 'the upstream reported response.failed',
      upstreamCode: 'invalid_request',
    });
    expect(failed({ code: 429, type: 'rate_limit' })?.upstreamCode).toBe('rate_limit');
    expect(failed('boom')).toEqual({ code: 'response_failed', message: 'the upstream reported response.failed', upstreamCode: null });
  });

  it('reports a failed response without a response object', () => {
    expect(assemble([{ type: 'response.failed' }]).error).toEqual({
      code: 'response_failed',
      message: 'the upstream reported response.failed',
      upstreamCode: null,
    });
  });

  it('replaces an earlier error event by the failure', () => {
    const a = assemble([
      { type: 'error', message: 'first' },
      { type: 'response.failed', response: { error: { message: 'final' } } },
    ]);
    expect(a.error).toEqual({ code: 'response_failed', message: 'final', upstreamCode: null });
  });

  it('reports an incomplete response with its reason, as Codex words it', () => {
    expect(assemble([{ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }]).error).toEqual({
      code: 'response_incomplete',
      message: 'Incomplete response returned, reason: max_output_tokens',
      upstreamCode: 'max_output_tokens',
    });
    expect(assemble([{ type: 'response.incomplete', response: { incomplete_details: 'max_output_tokens' } }]).error).toEqual({
      code: 'response_incomplete',
      message: 'Incomplete response returned, reason: unknown',
      upstreamCode: null,
    });
  });

  it('reads an error event message and code, at the top level first, then inside error', () => {
    const err = (data: Record<string, unknown>) => assemble([{ type: 'error', ...data }]).error;
    expect(err({ message: 'top', code: 'c1', error: { message: 'inner', code: 'c2', type: 't' } })).toEqual({
      code: 'error_event',
      message: 'top',
      upstreamCode: 'c1',
    });
    expect(err({ message: '', error: { message: 'inner', code: 'c2', type: 't' } })).toEqual({
      code: 'error_event',
      message: 'inner',
      upstreamCode: 'c2',
    });
    expect(err({ error: { type: 'usage_limit_reached', message: '' } })).toEqual({
      code: 'error_event',
      message: 'the upstream sent an error event',
      upstreamCode: 'usage_limit_reached',
    });
    expect(err({})).toEqual({ code: 'error_event', message: 'the upstream sent an error event', upstreamCode: null });
  });

  it('takes an error event whose data is text as the message, cut to 500 characters', () => {
    const a = new ResponseAssembler();
    a.apply('error', 'x'.repeat(600));
    expect(a.error).toEqual({ code: 'error_event', message: 'x'.repeat(500), upstreamCode: null });
    a.apply('error', '');
    expect(a.error).toEqual({ code: 'error_event', message: 'the upstream sent an error event', upstreamCode: null });
  });

  it('ignores event data that is neither an object nor error text', () => {
    const a = new ResponseAssembler();
    a.apply('error', 42);
    a.apply('error', null);
    a.apply('error', ['x']);
    a.apply('response.completed', 'done');
    a.apply('response.output_text.delta', 'text');
    expect([a.error, a.terminal]).toEqual([null, null]);
  });

  it('ignores event types it does not know', () => {
    const a = assemble([
      added(0, msg('m', [])),
      { type: 'response.content_part.added', output_index: 0, part: { type: 'output_text', text: 'x' } },
    ]);
    expect(a.output()).toEqual([msg('m', [])]);
    expect([a.error, a.terminal]).toEqual([null, null]);
  });
});
