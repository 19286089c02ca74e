import { describe, expect, it } from 'vitest';
import { messagePartSection, renderRequest } from '../../../companion/analysis/render';
import { loadFixture } from '../../support/records';

const msg = (role: string, content: unknown) => ({ type: 'message', role, content });
const blocksOf = (item: unknown) => renderRequest({ input: [item] });
const oneBlock = (item: unknown) => {
  const blocks = blocksOf(item);
  expect(blocks).toHaveLength(1);
  return blocks[0];
};

describe('messagePartSection', () => {
  it('reads leading developer and system text by its markers, later ones as developer messages', () => {
    expect(messagePartSection('developer', true, '<skills_instructions>')).toBe('skills');
    expect(messagePartSection('system', true, '<permissions instructions>')).toBe('permissions');
    expect(messagePartSection('developer', true, 'You are Codex')).toBe('instructions');
    expect(messagePartSection('developer', false, '<skills_instructions>')).toBe('conversation: developer');
    expect(messagePartSection('system', false, 'x')).toBe('conversation: developer');
  });

  it('reads user text by its markers, leading or not, and assistant text as the assistant’s', () => {
    expect(messagePartSection('user', true, '<environment_context>')).toBe('environment context');
    expect(messagePartSection('user', false, 'hi')).toBe('conversation: user');
    expect(messagePartSection('assistant', false, '<environment_context>')).toBe('conversation: assistant');
    expect(messagePartSection(null, true, 'x')).toBe('other');
    expect(messagePartSection('tool', false, 'x')).toBe('other');
  });
});

describe('renderRequest messages', () => {
  it('renders each part behind its role, in its section, as one unit per item', () => {
    const blocks = renderRequest({
      input: [
        msg('developer', [
          { type: 'input_text', text: 'Base.' },
          { type: 'input_text', text: '<skills_instructions>\nS' },
        ]),
        msg('user', 'hi'),
      ],
    });
    expect(blocks).toEqual([
      { section: 'instructions', group: 'instructions', tool: null, text: 'developer\nBase.\n', opaqueBytes: 0, unit: 'item:0' },
      {
        section: 'skills',
        group: 'instructions',
        tool: null,
        text: 'developer\n<skills_instructions>\nS\n',
        opaqueBytes: 0,
        unit: 'item:0',
      },
      { section: 'conversation: user', group: 'input', tool: null, text: 'user\nhi\n', opaqueBytes: 0, unit: 'item:1' },
    ]);
  });

  it('renders refusals, opaque parts as placeholders with their size, and other parts as empty', () => {
    const blocks = blocksOf(
      msg('assistant', [
        { type: 'refusal', refusal: 'no' },
        { type: 'input_image', image_url: 'data:1234' },
        { type: 'output_text', text: 'both', refusal: 'r' },
        { type: 'output_text' },
        'raw',
      ]),
    );
    expect(blocks.map((b) => [b.section, b.text, b.opaqueBytes])).toEqual([
      ['conversation: assistant', 'assistant\nno\n', 0],
      ['conversation: assistant', 'assistant\n[image]\n', 9],
      ['conversation: assistant', 'assistant\nboth\n', 0],
      ['conversation: assistant', 'assistant\n', 0],
      ['conversation: assistant', 'assistant\n', 0],
    ]);
  });

  it('does not add a newline to text that ends with one, and puts a text line before a block that would start with space or /', () => {
    expect(oneBlock(msg('user', 'done\n')).text).toBe('user\ndone\n');
    expect(oneBlock(msg(' user', 'x')).text).toBe('text\n user\nx\n');
    expect(oneBlock({ type: 'function_call', name: 'f', namespace: '/ns', arguments: '' }).text).toBe('call /ns.f\n');
    expect(oneBlock({ type: '/odd' }).text).toBe('text\n/odd\n{}\n');
  });

  it('labels a message without a role `message`', () => {
    expect(oneBlock({ type: 'message', content: 'x' })).toMatchObject({ section: 'other', group: 'other', text: 'message\nx\n' });
  });
});

describe('renderRequest items', () => {
  it('renders calls with their arguments or input behind `call <namespace.name>`', () => {
    expect(oneBlock({ type: 'function_call', namespace: 'ns', name: 'f', arguments: '{"a":1}' })).toEqual({
      section: 'tool calls',
      group: 'input',
      tool: null,
      text: 'call ns.f\n{"a":1}\n',
      opaqueBytes: 0,
      unit: 'item:0',
    });
    expect(oneBlock({ type: 'function_call' }).text).toBe('call tool\n');
    expect(oneBlock({ type: 'custom_tool_call', name: 'apply_patch', input: 'patch' }).text).toBe('call apply_patch\npatch\n');
    expect(oneBlock({ type: 'custom_tool_call' }).text).toBe('call tool\n');
  });

  it('renders outputs as text, list outputs line by line with opaque parts as placeholders', () => {
    expect(oneBlock({ type: 'function_call_output', output: 'ok' })).toMatchObject({
      section: 'tool outputs',
      text: 'output\nok\n',
      opaqueBytes: 0,
    });
    const list = [{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'abc' }, { type: 'x', n: 1 }, 5];
    expect(oneBlock({ type: 'custom_tool_call_output', output: list })).toMatchObject({
      section: 'tool outputs',
      text: 'output\na\n[image]\n{"type":"x","n":1}\n',
      opaqueBytes: 3,
    });
    expect(oneBlock({ type: 'local_shell_call_output', output: { a: 1 } }).text).toBe('output\n');
  });

  it('renders reasoning summaries and content, with a placeholder for the encrypted part', () => {
    const item = {
      type: 'reasoning',
      summary: [{ text: 'S' }, 'skip'],
      content: [{ text: 'C' }, {}],
      encrypted_content: 'abcd',
    };
    expect(oneBlock(item)).toMatchObject({
      section: 'reasoning',
      group: 'input',
      text: 'reasoning\nS\nC\n\n[encrypted]\n',
      opaqueBytes: 4,
    });
    expect(oneBlock({ type: 'reasoning', summary: [{ text: 'S' }], encrypted_content: '' })).toMatchObject({
      text: 'reasoning\nS\n',
      opaqueBytes: 0,
    });
    expect(oneBlock({ type: 'reasoning', encrypted_content: 5 })).toMatchObject({ text: 'reasoning\n', opaqueBytes: 0 });
    // Only a string is encrypted content, not a list that happens to have a length.
    expect(oneBlock({ type: 'reasoning', encrypted_content: ['a', 'b'] })).toMatchObject({ text: 'reasoning\n', opaqueBytes: 0 });
  });

  it('renders compactions as encrypted, and the compaction trigger as its label', () => {
    expect(oneBlock({ type: 'compaction', encrypted_content: 'xyz' })).toMatchObject({
      section: 'compaction summary',
      text: 'compaction\n[encrypted]\n',
      opaqueBytes: 3,
    });
    expect(oneBlock({ type: 'compaction', encrypted_content: 3 })).toMatchObject({ opaqueBytes: 0 });
    expect(oneBlock({ type: 'compaction', encrypted_content: ['a', 'b'] })).toMatchObject({ opaqueBytes: 0 });
    expect(oneBlock({ type: 'compaction_trigger' })).toMatchObject({ section: 'compaction prompt', text: 'compaction trigger\n' });
  });

  it('renders agent messages behind author and recipient', () => {
    const item = { type: 'agent_message', author: '/root', recipient: '/root/a', content: [{ type: 'input_text', text: 'go' }] };
    expect(oneBlock(item)).toMatchObject({ section: 'agent messages', text: 'agent /root to /root/a\ngo\n' });
    expect(oneBlock({ type: 'agent_message', content: 'hi' }).text).toBe('agent ? to ?\nhi\n');
  });

  it('renders other items as JSON without their type, placed by the type’s ending', () => {
    expect(oneBlock({ type: 'web_search_call', id: 'w', status: 'done' })).toMatchObject({
      section: 'tool calls',
      text: 'web_search_call\n{"id":"w","status":"done"}\n',
    });
    expect(oneBlock({ type: 'mcp_list_tools_output' })).toMatchObject({ section: 'tool outputs', text: 'mcp_list_tools_output\n{}\n' });
    expect(oneBlock({ type: 'item_reference', id: 'r' })).toMatchObject({
      section: 'other',
      group: 'other',
      text: 'item_reference\n{"id":"r"}\n',
    });
    expect(oneBlock({ id: 'r' })).toMatchObject({ section: 'other', text: 'item\n{"id":"r"}\n' });
    expect(oneBlock({ type: 5 })).toMatchObject({ section: 'other', text: '5\n{}\n' });
  });

  it('skips input entries that are not objects', () => {
    expect(renderRequest({ input: ['x', null, 3] })).toEqual([]);
  });
});

describe('renderRequest tools and fields', () => {
  it('opens with the instructions field, then the body’s tools, then the input', () => {
    const blocks = renderRequest({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', description: 'Does f.', parameters: { type: 'object' } }],
      input: [msg('user', 'hi')],
    });
    expect(blocks.map((b) => [b.section, b.unit, b.text])).toEqual([
      ['instructions', 'field:instructions', 'instructions\nBe brief.\n'],
      ['tool:f', 'tool:f', 'tool f\nDoes f.\nparameters {"type":"object"}\n'],
      ['conversation: user', 'item:0', 'user\nhi\n'],
    ]);
    expect(blocks[0]).toMatchObject({ group: 'instructions', tool: null, opaqueBytes: 0 });
    expect(blocks[1]).toMatchObject({ group: 'tools', opaqueBytes: 0, tool: { key: 'f', kind: 'dynamic', placement: 'tools' } });
  });

  it('renders a custom tool’s grammar, a namespace description on its first tool, and hosted tools as JSON', () => {
    const format = { type: 'grammar', syntax: 'lark', definition: 'start: x' };
    const blocks = renderRequest({
      tools: [
        {
          type: 'namespace',
          name: 'ns',
          description: 'Group.',
          tools: [
            { type: 'function', name: 'a' },
            { type: 'function', name: 'b', description: '' },
          ],
        },
        { type: 'custom', name: 'apply_patch', description: 'Patch.', format },
        { type: 'web_search', external_web_access: false },
      ],
    });
    expect(blocks.map((b) => b.text)).toEqual([
      'tool ns.a\nGroup.\n',
      'tool ns.b\n',
      `tool apply_patch\nPatch.\nformat ${JSON.stringify(format)}\n`,
      'tool web_search\n{"type":"web_search","external_web_access":false}\n',
    ]);
  });

  it('renders a tool list resent as it was like the first time, each call with blocks of its own', () => {
    const list = () => [{ type: 'function', name: 'f', description: 'Does f.', parameters: { type: 'object' } }];
    const first = renderRequest({ tools: list() });
    first[0].tool!.kind = 'mcp'; // a caller changing its copy
    first[0].text = 'changed';
    const again = renderRequest({ tools: list() });
    expect(again).toEqual([
      {
        section: 'tool:f',
        group: 'tools',
        unit: 'tool:f',
        opaqueBytes: 0,
        text: 'tool f\nDoes f.\nparameters {"type":"object"}\n',
        tool: expect.objectContaining({ key: 'f', kind: 'dynamic' }),
      },
    ]);
    // Another list is rendered as itself, not as the one before it.
    const edited = list();
    edited[0].description = 'Does f twice.';
    expect(renderRequest({ tools: edited })[0].text).toBe('tool f\nDoes f twice.\nparameters {"type":"object"}\n');
  });

  it('renders a tool without a description as its parameters alone', () => {
    const blocks = renderRequest({
      tools: [
        { type: 'function', name: 'g', parameters: { type: 'object' } },
        { type: 'custom', name: 'h', description: '' },
      ],
    });
    expect(blocks.map((b) => b.text)).toEqual(['tool g\nparameters {"type":"object"}\n', 'tool h\n']);
  });

  it('renders exec with its preamble only, and each nested tool as its own block', () => {
    const description = 'Runs code.\n### `apply_patch`\nPatches.\n';
    const blocks = renderRequest({ input: [{ type: 'additional_tools', tools: [{ type: 'custom', name: 'exec', description }] }] });
    expect(blocks.map((b) => [b.section, b.unit, b.text])).toEqual([
      ['tool:exec', 'tool:exec', 'tool exec\nRuns code.\n'],
      ['tool:exec/apply_patch', 'tool:exec/apply_patch', '### `apply_patch`\nPatches.\n'],
    ]);
    expect(blocks[0].tool).toMatchObject({ key: 'exec', placement: 'additional_tools' });
    expect(blocks[1].tool).toMatchObject({ placement: 'exec', kind: 'builtin' });
  });

  it('renders the tools a tool_search output loads', () => {
    const blocks = renderRequest({
      input: [{ type: 'tool_search_output', tools: [{ type: 'function', name: 'late', description: 'L.' }] }],
    });
    expect(blocks.map((b) => [b.section, b.text, b.tool?.placement])).toEqual([['tool:late', 'tool late\nL.\n', 'tool_search_output']]);
  });

  it('renders a structured output format, but not the plain text one', () => {
    const format = { type: 'json_schema', name: 'answer', schema: { type: 'object' } };
    expect(renderRequest({ text: { format } })).toEqual([
      {
        section: 'output schema',
        group: 'other',
        tool: null,
        text: `output schema\n${JSON.stringify(format)}\n`,
        opaqueBytes: 0,
        unit: 'field:text.format',
      },
    ]);
    expect(renderRequest({ text: { format: { type: 'text' } } })).toEqual([]);
    expect(renderRequest({ text: { format: 'json' } })).toEqual([]);
    expect(renderRequest({ text: 'x' })).toEqual([]);
  });

  it('renders a real request’s base instructions as the first leading developer block', () => {
    const body = loadFixture('fallback-text-1.json').request!.body;
    const blocks = renderRequest(body);
    const first = blocks.find((b) => b.unit === 'item:0')!;
    expect(first).toMatchObject({ section: 'instructions', group: 'instructions' });
    // The base instructions end with a newline: none is added.
    expect(first.text).toBe(`developer\n${body.input[0].content[0].text}`);
    expect(first.text.endsWith('file.\n\n')).toBe(true);
  });
});
