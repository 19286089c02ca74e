import { describe, expect, it } from 'vitest';
import { layoutEntries } from '../../../companion/analysis/layout-entries';
import { loadFixture } from '../../support/records';

const msg = (role: string, content: unknown) => ({ type: 'message', role, content });
const text = (t: string) => ({ type: 'input_text', text: t });
const one = (item: unknown) => {
  const entries = layoutEntries({ input: [item] });
  expect(entries).toHaveLength(1);
  return entries[0];
};

describe('layoutEntries on a real request', () => {
  it('lists each message part in its section, leading developer parts by their markers', () => {
    const body = loadFixture('fallback-text-1.json').request!.body;
    const entries = layoutEntries(body);
    expect(entries.map((e) => [e.index, e.part, e.role, e.section, e.group])).toEqual([
      [0, 0, 'developer', 'instructions', 'instructions'],
      [1, 0, 'developer', 'skills', 'instructions'],
      [1, 1, 'developer', 'permissions', 'instructions'],
      [2, 0, 'user', 'user instructions', 'input'],
      [2, 1, 'user', 'environment context', 'input'],
      [3, 0, 'user', 'conversation: user', 'input'],
    ]);
    expect(entries.at(-1)).toEqual({
      index: 3,
      part: 0,
      type: 'message',
      role: 'user',
      section: 'conversation: user',
      group: 'input',
      label: 'user: say hello',
      labelCode: null,
      text: 'say hello',
      opaqueBytes: 0,
    });
    const first = body.input[0].content[0].text.split('\n')[0];
    expect(first.length).toBeGreaterThan(80);
    expect(entries[0].label).toBe(`developer: ${first.slice(0, 79)}…`);
  });
});

describe('message entries', () => {
  it('labels a part with its role and the first line of its text, cut to 80 characters', () => {
    const long = 'x'.repeat(100);
    expect(one(msg('user', [text(`  first line\nsecond`)])).label).toBe('user: first line');
    expect(one(msg('user', [text(long)])).label).toBe(`user: ${'x'.repeat(79)}…`);
    expect(one(msg('user', [text('y'.repeat(80))])).label).toBe(`user: ${'y'.repeat(80)}`);
    expect(one(msg('user', [text('')])).label).toBe('user: ');
  });

  it('reads a string content as one input text part', () => {
    expect(one(msg('assistant', 'hello'))).toMatchObject({ part: 0, section: 'conversation: assistant', text: 'hello' });
  });

  it('reads refusals, opaque parts as placeholders with their size, and other parts as JSON', () => {
    const entries = layoutEntries({
      input: [
        msg('assistant', [
          { type: 'refusal', refusal: 'no' },
          { type: 'input_image', image_url: 'data:abc' },
          { type: 'output_text', note: 1 },
          'raw',
        ]),
      ],
    });
    expect(entries.map((e) => [e.part, e.text, e.opaqueBytes])).toEqual([
      [0, 'no', 0],
      [1, '[image]', 8],
      [2, '{\n  "type": "output_text",\n  "note": 1\n}', 0],
      [3, '{}', 0],
    ]);
  });

  it('shows a part that cannot be serialised as String() gives it, and a list part as JSON', () => {
    const entries = layoutEntries({ input: [msg('user', [{ type: 'x', n: 1n }, ['a']])] });
    expect(entries.map((e) => e.text)).toEqual(['[object Object]', '{}']);
  });

  it('puts later developer messages in the conversation, and messages without a role under other', () => {
    const entries = layoutEntries({
      input: [
        msg('developer', [text('<permissions instructions>x')]),
        msg('user', 'hi'),
        msg('developer', 'late'),
        { type: 'message', content: 'who' },
      ],
    });
    expect(entries.map((e) => [e.role, e.section, e.group, e.label])).toEqual([
      ['developer', 'permissions', 'instructions', 'developer: <permissions instructions>x'],
      ['user', 'conversation: user', 'input', 'user: hi'],
      ['developer', 'conversation: developer', 'input', 'developer: late'],
      ['message', 'other', 'other', 'message: who'],
    ]);
  });

  it('keeps developer messages after a leading catalog leading', () => {
    const entries = layoutEntries({ input: [{ type: 'additional_tools', tools: [] }, msg('system', 'base')] });
    expect(entries.map((e) => [e.index, e.section])).toEqual([[1, 'instructions']]);
  });
});

describe('item entries', () => {
  it('labels function and custom calls by namespace and name, with their arguments or input as text', () => {
    expect(one({ type: 'function_call', namespace: 'ns', name: 'f', arguments: '{"a":1}', call_id: 'c' })).toEqual({
      index: 0,
      part: null,
      type: 'function_call',
      role: null,
      section: 'tool calls',
      group: 'input',
      label: 'call ns.f',
      labelCode: { code: 'entry.call', params: { name: 'ns.f' } },
      text: '{"a":1}',
      opaqueBytes: 0,
    });
    expect(one({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' })).toMatchObject({
      section: 'tool calls',
      label: 'call apply_patch',
      text: '*** Begin Patch',
    });
    expect(one({ type: 'function_call', arguments: 3 })).toMatchObject({ label: 'call tool', text: null });
    expect(one({ type: 'custom_tool_call', namespace: 'ns', input: null })).toMatchObject({ label: 'call ns', text: null });
  });

  it('labels outputs by call id, joins list outputs by line and counts their opaque parts', () => {
    expect(one({ type: 'function_call_output', call_id: 'call_1', output: 'done' })).toMatchObject({
      section: 'tool outputs',
      group: 'input',
      label: 'output call_1',
      labelCode: { code: 'entry.output', params: { callId: 'call_1' } },
      text: 'done',
      opaqueBytes: 0,
    });
    const list = [{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: '12345' }, 7, { type: 'x' }];
    expect(one({ type: 'custom_tool_call_output', output: list })).toMatchObject({
      label: 'output',
      labelCode: { code: 'entry.outputBare', params: {} },
      text: 'a\n[image]\n{}\n{\n  "type": "x"\n}',
      opaqueBytes: 5,
    });
    expect(one({ type: 'local_shell_call_output', call_id: 'c', output: { not: 'a list' } })).toMatchObject({ text: '', opaqueBytes: 0 });
  });

  it('shows a reasoning replay’s summary and content, and its encrypted size', () => {
    const item = {
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'S1' }, { type: 'summary_text', text: 'S2' }, 'skip'],
      content: [{ type: 'reasoning_text', text: 'C' }, { type: 'reasoning_text' }],
      encrypted_content: 'abcdef',
    };
    expect(one(item)).toMatchObject({
      section: 'reasoning',
      label: 'reasoning (replayed)',
      labelCode: { code: 'entry.reasoning', params: {} },
      text: 'S1\n\nS2\n\nC\n\n',
      opaqueBytes: 6,
    });
    expect(one({ type: 'reasoning', summary: [], encrypted_content: 12 })).toMatchObject({ text: null, opaqueBytes: 0 });
  });

  it('shows compactions by their encrypted size, with no text', () => {
    expect(one({ type: 'compaction', encrypted_content: 'xyz' })).toMatchObject({
      section: 'compaction summary',
      label: 'compaction (encrypted summary)',
      text: null,
      opaqueBytes: 3,
    });
    expect(one({ type: 'compaction_trigger', encrypted_content: 'xyz' })).toMatchObject({
      section: 'compaction prompt',
      label: 'compaction trigger',
      text: null,
      opaqueBytes: 0,
    });
  });

  it('labels agent messages by author and recipient', () => {
    expect(
      one({ type: 'agent_message', author: '/root', recipient: '/root/a', content: [{ type: 'input_text', text: 'go' }] }),
    ).toMatchObject({
      section: 'agent messages',
      label: 'agent /root → /root/a',
      labelCode: { code: 'entry.agent', params: { author: '/root', recipient: '/root/a' } },
      text: 'go',
    });
    expect(one({ type: 'agent_message', content: 'plain' })).toMatchObject({ label: 'agent ? → ?', text: 'plain' });
  });

  it('lists a tool_search output as an entry, its tools being listed as tools', () => {
    expect(one({ type: 'tool_search_output', tools: [] })).toMatchObject({
      section: 'tool outputs',
      label: 'tool_search output (deferred tools loaded here)',
      text: null,
    });
  });

  it('places unknown items by their type’s ending, labelled with the type as it is', () => {
    expect(one({ type: 'web_search_call', id: 'w' })).toMatchObject({
      section: 'tool calls',
      group: 'input',
      label: 'web_search_call',
      labelCode: null,
      text: null,
    });
    expect(one({ type: 'mcp_output' })).toMatchObject({ section: 'tool outputs', label: 'mcp_output' });
    expect(one({ type: 'item_reference' })).toMatchObject({ section: 'other', group: 'other', label: 'item_reference' });
    expect(one({ id: 'x' })).toMatchObject({ type: 'unknown', section: 'other', label: 'unknown' });
  });
});

describe('layoutEntries', () => {
  it('opens with the instructions field when the request has one', () => {
    const entries = layoutEntries({ instructions: 'Be brief.', input: [msg('user', 'hi')] });
    expect(entries[0]).toEqual({
      index: -1,
      part: null,
      type: 'instructions',
      role: null,
      section: 'instructions',
      group: 'instructions',
      label: 'instructions field',
      labelCode: { code: 'entry.instructionsField', params: {} },
      text: 'Be brief.',
      opaqueBytes: 0,
    });
    expect(entries).toHaveLength(2);
  });

  it('leaves out tool catalogs and items that are not objects', () => {
    const entries = layoutEntries({
      input: [{ type: 'additional_tools', tools: [] }, 'x', null, [msg('user', 'in a list')], msg('user', 'hi')],
    });
    expect(entries.map((e) => e.index)).toEqual([4]);
    expect(layoutEntries(null)).toEqual([]);
  });
});
