import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExecDeclarations } from '../../../companion/analysis/exec-declarations';
import { layoutTools } from '../../../companion/analysis/layout-tools';

/** The last request of a full capture in tests/fixtures/requests (real Codex traffic). */
function requestBody(file: string): any {
  return JSON.parse(fs.readFileSync(`tests/fixtures/requests/${file}`, 'utf8')).requests.at(-1).body;
}

describe('layoutTools on a real code-mode request', () => {
  // Read inside each test (not while collecting them), so mutation testing sees which tests run the code.
  const read = () => {
    const body = requestBody('gpt-6.1-sol-mcp-tool-search.json');
    return { body, tools: layoutTools(body), exec: body.input[0].tools[0].tools[0] };
  };

  it('lists the catalog’s tools in order, exec first with its nested tools under it', () => {
    const { tools } = read();
    expect(tools.map((t) => [t.key, t.docKey, t.placement, t.kind, t.type, t.itemIndex, t.nested.length])).toEqual([
      ['exec', 'exec', 'additional_tools', 'builtin', 'custom', 0, 12],
      ['wait', 'wait', 'additional_tools', 'builtin', 'function', 0, 0],
      ['request_user_input', 'request_user_input', 'additional_tools', 'builtin', 'function', 0, 0],
      ['request_user_input_async', 'request_user_input_async', 'additional_tools', 'builtin', 'function', 0, 0],
      ['clock.sleep', 'clock.sleep', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.followup_task', 'collaboration.followup_task', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.interrupt_agent', 'collaboration.interrupt_agent', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.list_agents', 'collaboration.list_agents', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.send_message', 'collaboration.send_message', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.spawn_agent', 'collaboration.spawn_agent', 'additional_tools', 'builtin', 'function', 0, 0],
      ['collaboration.wait_agent', 'collaboration.wait_agent', 'additional_tools', 'builtin', 'function', 0, 0],
    ]);
  });

  it('shows exec with the description before its nested sections and its grammar as schema', () => {
    const { tools, exec } = read();
    const t = tools[0];
    expect(t).toMatchObject({ namespace: 'functions', name: 'exec', namespaceDescription: null, schema: exec.format });
    expect(t.description).toBe(exec.description.slice(0, exec.description.indexOf('\n### `apply_patch`')).trimEnd());
  });

  it('shows each nested tool with its section and TypeScript declaration', () => {
    const { tools, exec } = read();
    const declared = parseExecDeclarations(exec.description);
    const nested = tools[0].nested;
    expect(nested.map((n) => n.key)).toEqual(declared.map((d) => `exec/${d.namespace ? `${d.namespace}.${d.name}` : d.name}`));
    nested.forEach((n, i) => {
      expect(n).toEqual({
        key: n.key,
        docKey: declared[i].namespace ? `${declared[i].namespace}.${declared[i].name}` : declared[i].name,
        namespace: declared[i].namespace,
        name: declared[i].name,
        placement: 'exec',
        kind: 'builtin',
        type: 'nested',
        description: declared[i].section,
        schema: declared[i].declaration,
        namespaceDescription: null,
        itemIndex: 0,
        nested: [],
      });
    });
    expect(nested.at(-1)).toMatchObject({ key: 'exec/clock.curr_time', docKey: 'clock.curr_time', namespace: 'clock', name: 'curr_time' });
  });

  it('shows a function’s parameters as its schema and its namespace group’s description', () => {
    const { body, tools } = read();
    const clock = body.input[0].tools[1];
    expect(tools[4]).toMatchObject({
      namespace: 'clock',
      name: 'sleep',
      description: clock.tools[0].description,
      schema: clock.tools[0].parameters,
      namespaceDescription: clock.description,
    });
  });
});

describe('layoutTools', () => {
  it('shows a hosted tool’s whole definition as its schema', () => {
    const [t] = layoutTools({ tools: [{ type: 'web_search', external_web_access: true }] });
    expect(t).toEqual({
      key: 'web_search',
      docKey: 'web_search',
      namespace: null,
      name: 'web_search',
      placement: 'tools',
      kind: 'hosted',
      type: 'web_search',
      description: null,
      schema: { type: 'web_search', external_web_access: true },
      namespaceDescription: null,
      itemIndex: null,
      nested: [],
    });
  });

  it('shows a custom tool’s grammar as its schema, its parameters when it has them', () => {
    const format = { type: 'grammar', syntax: 'lark', definition: 'start: x' };
    const [custom, both, none] = layoutTools({
      tools: [
        { type: 'custom', name: 'apply_patch', description: 'Patch.', format },
        { type: 'function', name: 'f', parameters: { type: 'object' }, format },
        { type: 'function', name: 'g' },
      ],
    });
    expect(custom).toMatchObject({ description: 'Patch.', schema: format, nested: [] });
    expect(both.schema).toEqual({ type: 'object' });
    expect(none.schema).toBeUndefined();
  });

  it('files renamed namespaces under their docs’ name', () => {
    const [t] = layoutTools({ tools: [{ type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'spawn_agent' }] }] });
    expect([t.key, t.docKey, t.namespace]).toEqual(['agents.spawn_agent', 'collaboration.spawn_agent', 'agents']);
  });

  it('gives a nested tool without a declaration no description or schema, and keeps the tools after exec at top level', () => {
    const description = 'Runs code.\n### `get_goal`\nGets the goal.\n';
    const tools = layoutTools({
      tools: [
        { type: 'custom', name: 'exec', description },
        { type: 'function', name: 'after' },
      ],
    });
    expect(tools.map((t) => [t.key, t.nested.map((n) => n.key)])).toEqual([
      ['exec', ['exec/get_goal']],
      ['after', []],
    ]);
    expect(tools[0].description).toBe('Runs code.');
    expect(tools[0].nested[0]).toMatchObject({ description: '### `get_goal`\nGets the goal.', schema: undefined });
  });

  it('keeps the whole description of a tool other than exec, headings and all', () => {
    const description = 'Looks up.\n### `not_nested`\nA heading in prose.';
    const [t] = layoutTools({ tools: [{ type: 'function', name: 'lookup', description }] });
    expect(t).toMatchObject({ description, nested: [] });
  });

  it('shows an exec tool without nested sections with its whole description', () => {
    const [t] = layoutTools({ tools: [{ type: 'custom', name: 'exec', description: 'Runs code.\n\n' }] });
    expect(t).toMatchObject({ description: 'Runs code.\n\n', nested: [] });
  });

  it('lists nothing for a body that is not an object', () => {
    expect(layoutTools(null)).toEqual([]);
    expect(layoutTools([{ type: 'function', name: 'f' }])).toEqual([]);
  });
});
