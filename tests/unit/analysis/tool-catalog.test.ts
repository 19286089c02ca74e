import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requestTools, toolsFromList } from '../../../companion/analysis/tool-catalog';

/** The last request of a full capture in tests/fixtures/requests (real Codex traffic). */
function requestBody(file: string): any {
  return JSON.parse(fs.readFileSync(`tests/fixtures/requests/${file}`, 'utf8')).requests.at(-1).body;
}

const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', name, description: `${name} does it`, ...extra });
const refs = (list: ReturnType<typeof toolsFromList>) => list.map((e) => [e.ref.key, e.ref.kind]);

describe('requestTools on real requests', () => {
  it('lists body tools, namespace groups expanded, with hosted tools by their type', () => {
    const tools = requestTools(requestBody('gpt-5-codex-default.json'));
    expect(tools.map((e) => [e.ref.key, e.ref.placement, e.ref.kind, e.type, e.itemIndex])).toEqual([
      ['exec_command', 'tools', 'builtin', 'function', null],
      ['write_stdin', 'tools', 'builtin', 'function', null],
      ['request_user_input', 'tools', 'builtin', 'function', null],
      ['view_image', 'tools', 'builtin', 'function', null],
      ['multi_agent_v1.close_agent', 'tools', 'builtin', 'function', null],
      ['multi_agent_v1.resume_agent', 'tools', 'builtin', 'function', null],
      ['multi_agent_v1.send_input', 'tools', 'builtin', 'function', null],
      ['multi_agent_v1.spawn_agent', 'tools', 'builtin', 'function', null],
      ['multi_agent_v1.wait_agent', 'tools', 'builtin', 'function', null],
      ['get_goal', 'tools', 'builtin', 'function', null],
      ['create_goal', 'tools', 'builtin', 'function', null],
      ['update_goal', 'tools', 'builtin', 'function', null],
      ['web_search', 'tools', 'hosted', 'web_search', null],
    ]);
  });

  it('gives a namespace group’s description to its first tool for counting and to all of them for showing', () => {
    const body = requestBody('gpt-5-codex-default.json');
    const group = body.tools.find((t: any) => t.type === 'namespace');
    const tools = requestTools(body).filter((e) => e.ref.namespace === 'multi_agent_v1');
    expect(tools.map((e) => e.namespaceDescription)).toEqual([group.description, null, null, null, null]);
    expect(tools.map((e) => e.groupDescription)).toEqual(Array(5).fill(group.description));
    expect(tools[0].definition).toBe(group.tools[0]);
    expect(tools[0].description).toBe(group.tools[0].description);
  });

  it('places a code-mode catalog’s tools under additional_tools, exec’s nested tools after exec', () => {
    const body = requestBody('gpt-6.1-sol-mcp-tool-search.json');
    const tools = requestTools(body);
    const exec = body.input[0].tools[0].tools[0];
    expect(tools[0]).toMatchObject({
      ref: { key: 'exec', namespace: 'functions', name: 'exec', placement: 'additional_tools', kind: 'builtin' },
      type: 'custom',
      description: exec.description,
      definition: exec,
      // The `functions` group has an empty description: nothing to count.
      namespaceDescription: null,
      groupDescription: null,
      itemIndex: 0,
      nestedText: null,
    });
    expect(exec.description.startsWith(tools[0].execPreamble)).toBe(true);
    expect(tools[0].execPreamble).toMatch(/^Run JavaScript/);
    const nested = tools.filter((e) => e.ref.placement === 'exec');
    expect(nested.map((e) => e.ref.key)).toEqual([
      'exec/apply_patch',
      'exec/create_goal',
      'exec/exec_command',
      'exec/get_goal',
      'exec/list_mcp_resource_templates',
      'exec/list_mcp_resources',
      'exec/read_mcp_resource',
      'exec/tool_search',
      'exec/update_goal',
      'exec/view_image',
      'exec/write_stdin',
      'exec/clock.curr_time',
    ]);
    expect(tools.slice(1, 13)).toEqual(nested);
    // The preamble and the nested texts are the whole description, in order.
    expect(tools[0].execPreamble + nested.map((e) => e.nestedText).join('')).toBe(exec.description);
    expect(nested.at(-1)).toEqual({
      ref: { key: 'exec/clock.curr_time', namespace: 'clock', name: 'curr_time', placement: 'exec', kind: 'builtin' },
      type: 'nested',
      description: null,
      definition: { type: 'nested', name: 'clock__curr_time' },
      namespaceDescription: null,
      groupDescription: null,
      itemIndex: 0,
      execPreamble: null,
      nestedText: nested.at(-1)!.nestedText,
    });
    expect(nested.at(-1)!.nestedText).toMatch(/^## clock\n/);
    expect(tools.slice(13).map((e) => [e.ref.key, e.ref.placement, e.itemIndex])).toEqual([
      ['wait', 'additional_tools', 0],
      ['request_user_input', 'additional_tools', 0],
      ['request_user_input_async', 'additional_tools', 0],
      ['clock.sleep', 'additional_tools', 0],
      ['collaboration.followup_task', 'additional_tools', 0],
      ['collaboration.interrupt_agent', 'additional_tools', 0],
      ['collaboration.list_agents', 'additional_tools', 0],
      ['collaboration.send_message', 'additional_tools', 0],
      ['collaboration.spawn_agent', 'additional_tools', 0],
      ['collaboration.wait_agent', 'additional_tools', 0],
    ]);
  });

  it('adds the tools a tool_search output loads, with the index of that item', () => {
    const tools = requestTools(requestBody('gpt-5.5-tool-search.json'));
    expect(tools.filter((e) => e.ref.placement === 'tool_search_output').map((e) => [e.ref.key, e.itemIndex])).toEqual([
      ['multi_agent_v1.spawn_agent', 5],
      ['multi_agent_v1.resume_agent', 5],
      ['multi_agent_v1.close_agent', 5],
      ['multi_agent_v1.wait_agent', 5],
      ['multi_agent_v1.send_input', 5],
    ]);
    expect(tools.find((e) => e.ref.key === 'tool_search')).toMatchObject({ type: 'tool_search', ref: { kind: 'hosted' } });
    expect(tools.find((e) => e.ref.key === 'apply_patch')).toMatchObject({ type: 'custom', execPreamble: null, ref: { kind: 'builtin' } });
  });
});

describe('tool kinds', () => {
  it('calls tools of namespaces or names starting with mcp__ MCP tools', () => {
    const list = [
      { type: 'namespace', name: 'mcp__docs', tools: [fn('search')] },
      fn('mcp__docs__fetch'),
      { type: 'custom', name: 'mcp__x', description: 'd' },
    ];
    expect(refs(toolsFromList(list, 'tools'))).toEqual([
      ['mcp__docs.search', 'mcp'],
      ['mcp__docs__fetch', 'mcp'],
      ['mcp__x', 'mcp'],
    ]);
  });

  it('calls Codex’s own names and namespaces builtin, the rest dynamic', () => {
    const list = [
      fn('shell'),
      fn('local_shell'),
      fn('my_tool'),
      { type: 'namespace', name: 'skills', tools: [fn('anything')] },
      { type: 'namespace', name: 'acme', tools: [fn('exec_command')] },
      { type: 'namespace', name: 'agents', tools: [fn('spawn_agent')] },
    ];
    expect(refs(toolsFromList(list, 'tools'))).toEqual([
      ['shell', 'builtin'],
      ['local_shell', 'builtin'],
      ['my_tool', 'dynamic'],
      ['skills.anything', 'builtin'],
      // Inside a namespace the namespace decides, not the name.
      ['acme.exec_command', 'dynamic'],
      ['agents.spawn_agent', 'builtin'],
    ]);
  });

  it('calls every tool Codex documents as its own builtin, declared as a function (hosted types aside)', () => {
    // concepts/en/tool.<namespace>.<name>.md: the docs of Codex's own tools.
    const keys = fs
      .readdirSync('concepts/en')
      .filter((f) => f.startsWith('tool.') && f.endsWith('.md'))
      .map((f) => f.slice('tool.'.length, -'.md'.length))
      .filter((k) => k !== 'web_search' && k !== 'image_generation');
    expect(keys.length).toBeGreaterThan(40);
    const list = keys.map((k) => {
      const at = k.lastIndexOf('.');
      return at < 0 ? fn(k) : { type: 'namespace', name: k.slice(0, at), tools: [fn(k.slice(at + 1))] };
    });
    const kinds = toolsFromList(list, 'tools').map((e) => [e.ref.key, e.ref.kind]);
    expect(kinds).toEqual(keys.map((k) => [k, 'builtin']));
    // Nested in exec they are builtin too.
    const description = ['Runs code.', ...keys.map((k) => `### \`${k.replace('.', '__')}\`\nx`), ''].join('\n');
    const nested = toolsFromList([{ type: 'custom', name: 'exec', description }], 'tools').slice(1);
    expect(nested.map((e) => [e.ref.key, e.ref.kind])).toEqual(keys.map((k) => [`exec/${k}`, 'builtin']));
  });

  it('calls every tool of another type hosted, whatever its name', () => {
    const list = [{ type: 'web_search' }, { type: 'image_generation', name: 'exec_command' }, { name: 'nameless' }];
    expect(toolsFromList(list, 'tools').map((e) => [e.ref.key, e.type, e.ref.kind])).toEqual([
      ['web_search', 'web_search', 'hosted'],
      ['exec_command', 'image_generation', 'hosted'],
      ['nameless', 'unknown', 'hosted'],
    ]);
  });

  it('names a nested exec tool builtin, MCP or dynamic like any other', () => {
    const description = ['Runs code.', '### `apply_patch`', 'a', '### `mcp__srv__echo`', 'b', '### `acme__lookup`', 'c', ''].join('\n');
    const list = toolsFromList([{ type: 'custom', name: 'exec', description }], 'tools');
    expect(list.map((e) => [e.ref.key, e.ref.namespace, e.ref.name, e.ref.kind])).toEqual([
      ['exec', null, 'exec', 'builtin'],
      ['exec/apply_patch', null, 'apply_patch', 'builtin'],
      ['exec/mcp__srv.echo', 'mcp__srv', 'echo', 'mcp'],
      ['exec/acme.lookup', 'acme', 'lookup', 'dynamic'],
    ]);
    expect(list.slice(1).map((e) => e.nestedText)).toEqual([
      '### `apply_patch`\na\n',
      '### `mcp__srv__echo`\nb\n',
      '### `acme__lookup`\nc\n',
    ]);
    expect(list[0].execPreamble).toBe('Runs code.\n');
  });
});

describe('toolsFromList', () => {
  it('splits only a custom tool named exec with a description', () => {
    const description = 'Runs.\n### `apply_patch`\nx';
    for (const tool of [fn('exec', { description }), { type: 'custom', name: 'exec2', description }, { type: 'custom', name: 'exec' }]) {
      const list = toolsFromList([tool], 'tools');
      expect(list).toHaveLength(1);
      expect(list[0].execPreamble).toBeNull();
    }
    const [exec] = toolsFromList([{ type: 'custom', name: 'exec', description: 'No nested tools.' }], 'tools');
    expect(exec.execPreamble).toBe('No nested tools.');
  });

  it('keeps a nested tool’s item index from its exec tool', () => {
    const list = toolsFromList([{ type: 'custom', name: 'exec', description: 'R.\n### `get_goal`\ng' }], 'additional_tools', 4);
    expect(list.map((e) => e.itemIndex)).toEqual([4, 4]);
  });

  it('reads a description only when it is a string, and the namespace from the tool outside a group', () => {
    const [e] = toolsFromList([{ type: 'function', name: 'f', namespace: 'acme', description: 42 }], 'tools');
    expect(e).toMatchObject({ ref: { key: 'acme.f', namespace: 'acme', name: 'f' }, description: null });
    const [grouped] = toolsFromList([{ type: 'namespace', name: 'outer', tools: [fn('g', { namespace: 'inner' })] }], 'tools');
    expect(grouped.ref.namespace).toBe('outer');
  });

  it('takes a namespace without a tools list as a tool of its own, and an empty group description as none', () => {
    expect(toolsFromList([{ type: 'namespace', name: 'ns' }], 'tools').map((e) => [e.ref.key, e.type, e.ref.kind])).toEqual([
      ['ns', 'namespace', 'dynamic'],
    ]);
    const [e] = toolsFromList([{ type: 'namespace', name: 'ns', description: '', tools: [fn('a')] }], 'tools');
    expect([e.namespaceDescription, e.groupDescription]).toEqual([null, null]);
    const [f] = toolsFromList([{ type: 'namespace', name: 'ns', description: 7, tools: [fn('a')] }], 'tools');
    expect([f.namespaceDescription, f.groupDescription]).toEqual([null, null]);
  });

  it('expands only namespace groups, not another tool that carries a tools list', () => {
    const list = toolsFromList([fn('f', { tools: [fn('inner')] })], 'tools');
    expect(list.map((e) => [e.ref.key, e.type])).toEqual([['f', 'function']]);
  });

  it('skips entries that are not objects, in the list and in groups', () => {
    const list = ['x', null, [fn('in_array')], { type: 'namespace', name: 'ns', description: 'D', tools: [fn('a'), 3, fn('b')] }, fn('c')];
    const out = toolsFromList(list, 'tools', 2);
    expect(out.map((e) => [e.ref.key, e.namespaceDescription, e.groupDescription, e.itemIndex])).toEqual([
      ['ns.a', 'D', 'D', 2],
      ['ns.b', null, 'D', 2],
      ['c', null, null, 2],
    ]);
    expect(toolsFromList('not a list', 'tools')).toEqual([]);
  });

  it('defaults the item index to null', () => {
    expect(toolsFromList([fn('a')], 'tools')[0].itemIndex).toBeNull();
  });
});

describe('requestTools', () => {
  it('reads catalogs and tool_search outputs from the input, in order, and nothing else', () => {
    const body = {
      tools: [fn('a')],
      input: [
        null,
        { type: 'message', role: 'user', content: 'hi', tools: [fn('not_a_tool')] },
        { type: 'tool_search_output', tools: [fn('b')] },
        { type: 'additional_tools', tools: [fn('c')] },
      ],
    };
    expect(requestTools(body).map((e) => [e.ref.key, e.ref.placement, e.itemIndex])).toEqual([
      ['a', 'tools', null],
      ['b', 'tool_search_output', 2],
      ['c', 'additional_tools', 3],
    ]);
    expect(requestTools({})).toEqual([]);
  });
});
