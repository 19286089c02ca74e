import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { apportion, contextBreakdown } from '../../../companion/analysis/context';
import { renderRequest } from '../../../companion/analysis/render';
import { prng } from '../../support/chunks';
import { httpFixtureFiles, loadFixture, OLD_FIXTURES, UNELIDED_FIXTURES } from '../../support/records';

// Fixture bodies are untyped JSON; the tests index into them with `any`.
const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const unelided = httpFixtureFiles(UNELIDED_FIXTURES);
const everyFixture = [...unelided, ...httpFixtureFiles(OLD_FIXTURES)];

/**
 * An independent reading of a request: the raw strings of each section, taken straight from the
 * body with no code from the analysis stage (tool text = its description and JSON schema or
 * grammar; nested exec tools = their `### name` section up to the end of its declaration).
 */
function independentSections(body: any): Map<string, { texts: string[]; blocks: number }> {
  const out = new Map<string, { texts: string[]; blocks: number }>();
  const add = (name: string, text: string) => {
    const s = out.get(name) ?? { texts: [], blocks: 0 };
    s.texts.push(text);
    s.blocks++;
    out.set(name, s);
  };
  const addTool = (t: any, ns: string | null, nsDescription: string) => {
    const key = ns && ns !== 'functions' ? `${ns}.${t.name}` : (t.name ?? t.type);
    const parts = [nsDescription];
    if (t.type === 'function' || t.type === 'custom') {
      let description: string = t.description ?? '';
      if (t.name === 'exec' && description.includes('### `')) {
        const headings = [...description.matchAll(/^### `([^`]+)`$/gm)];
        for (const h of headings) {
          const fence = description.indexOf('\n```', description.indexOf('```', h.index!) + 3);
          const [nsName, ...rest] = h[1].split('__').reverse();
          const nestedKey = rest.length ? `${rest.reverse().join('__')}.${nsName}` : h[1];
          add(`tool:exec/${nestedKey}`, description.slice(h.index!, fence + 4));
        }
        description = description.slice(0, headings[0].index);
      }
      parts.push(description, JSON.stringify(t.parameters ?? t.format));
    } else parts.push(JSON.stringify(t));
    add(`tool:${key}`, parts.join(''));
  };
  const addTools = (list: any[]) => {
    for (const t of list ?? []) {
      if (t.type === 'namespace') t.tools.forEach((u: any, i: number) => addTool(u, t.name, i === 0 ? t.description : ''));
      else addTool(t, null, '');
    }
  };
  addTools(body.tools);
  let leading = true;
  for (const item of body.input) {
    if (item.type === 'additional_tools') {
      addTools(item.tools);
      continue;
    }
    const isDeveloper = item.type === 'message' && item.role === 'developer';
    leading &&= isDeveloper;
    if (item.type === 'message') {
      for (const part of item.content) {
        const text: string = part.text ?? '';
        if (isDeveloper && leading)
          add(
            text.startsWith('<skills_instructions>')
              ? 'skills'
              : text.startsWith('<permissions instructions>')
                ? 'permissions'
                : 'instructions',
            text,
          );
        else if (isDeveloper) add('conversation: developer', text);
        else if (item.role === 'assistant') add('conversation: assistant', text);
        else if (text.startsWith('# AGENTS.md instructions')) add('user instructions', text);
        else if (text.startsWith('<environment_context>')) add('environment context', text);
        else if (text.startsWith('Another language model')) add('compaction summary', text);
        else if (text.startsWith('You are performing a CONTEXT CHECKPOINT')) add('compaction prompt', text);
        else add('conversation: user', text);
      }
    } else if (item.type === 'function_call') add('tool calls', item.arguments);
    else if (item.type === 'custom_tool_call') add('tool calls', item.input);
    else if (item.type.endsWith('_output'))
      add('tool outputs', typeof item.output === 'string' ? item.output : item.output.map((p: any) => p.text).join('\n'));
    else if (item.type === 'agent_message')
      add('agent messages', [item.author, item.recipient, ...item.content.map((p: any) => p.text ?? '')].join('\n'));
    else add('other', JSON.stringify(item));
  }
  return out;
}

describe('contextBreakdown', () => {
  it.each(everyFixture.map((f) => [f.split('/').slice(-2).join('/'), f]))(
    'sums its raw section estimates to the tokenizer count of the whole rendered request (%s)',
    (_name, file) => {
      const body = loadFixture(file).request!.body;
      const whole = count(
        renderRequest(body)
          .map((b) => b.text)
          .join(''),
      );
      const breakdown = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null });
      expect(breakdown.totalTokens).toBe(whole);
      expect(breakdown.sections.reduce((a, s) => a + s.tokens, 0)).toBe(whole);
    },
  );

  it.each(unelided.map((f) => [f.split('/').at(-1), f]))(
    'agrees, section by section, with an independent count of its raw text within 10 tokens per block (%s)',
    (_name, file) => {
      const body = loadFixture(file).request!.body;
      const breakdown = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null });
      const independent = independentSections(body);
      expect(breakdown.sections.map((s) => s.name).sort()).toEqual([...independent.keys()].sort());
      for (const s of breakdown.sections) {
        const ind = independent.get(s.name)!;
        const expected = count(ind.texts.join('\n'));
        const diff = Math.abs(s.tokens - expected);
        // Each block adds a label line (the role, `tool <name>`, `parameters`), like the framing the model sees.
        // Each block carries one label line (the role, `call <name>`, `tool <key>`: at most 10 tokens
        // measured); a nested exec tool also carries its `## namespace` header (12 measured).
        const perBlock = s.name.startsWith('tool:exec/') ? 14 : 10;
        expect(diff, `${s.name}: ${s.tokens} vs independent ${expected}`).toBeLessThanOrEqual(perBlock * ind.blocks);
      }
    },
  );
});

describe('block boundaries', () => {
  it('never change token counts when a block ending in a newline meets one starting with neither whitespace nor a slash', () => {
    const alphabet = [
      'a',
      'Z',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '\r\n',
      '\t',
      '1',
      '234',
      "'s",
      '.',
      '}',
      '{',
      '/',
      '//',
      '#',
      '`',
      'é',
      '\u0301',
      '中',
      '😀',
      '<|endoftext|>',
      '-',
    ];
    const rand = prng(42);
    const text = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    for (let i = 0; i < 3000; i++) {
      const a = text(1 + Math.floor(rand() * 12)) + '\n';
      let b = text(1 + Math.floor(rand() * 12));
      while (/^[\s/]/.test(b)) b = b.slice(1) || 'x';
      expect(count(a + b), JSON.stringify([a, b])).toBe(count(a) + count(b));
    }
  });
});

describe('contextBreakdown sections', () => {
  it('covers every text of the request that reaches the model', () => {
    for (const file of unelided) {
      const body = loadFixture(file).request!.body;
      const rendering = renderRequest(body)
        .map((b) => b.text)
        .join('');
      const texts: string[] = [];
      const walk = (v: unknown, key: string) => {
        // Schemas and grammars are rendered as the JSON they were sent as.
        if (key === 'parameters' || key === 'format') texts.push(JSON.stringify(v));
        else if (typeof v === 'string' && ['text', 'description', 'arguments', 'input', 'output'].includes(key) && v.length > 0)
          texts.push(v);
        else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== 'client_metadata') walk(x, k);
      };
      walk({ input: body.input, tools: body.tools }, '');
      for (const t of texts) {
        // Exec's description is cut into its preamble and one section per nested tool.
        const pieces = t.includes('### `') ? t.split(/\n(?=### `|## )/) : [t];
        for (const piece of pieces) expect(rendering.includes(piece), `${file}: ${piece.slice(0, 60)}`).toBe(true);
      }
    }
  });

  it('gives each tool its own section, by namespace, with code-mode nested tools under exec', () => {
    const body = loadFixture('codemode-text-1.json').request!.body;
    const names = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).sections.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'tool:exec',
        'tool:exec/exec_command',
        'tool:exec/clock.curr_time',
        'tool:wait',
        'tool:clock.sleep',
        'tool:collaboration.spawn_agent',
      ]),
    );
    expect(names).toEqual(expect.arrayContaining(['instructions', 'skills', 'permissions', 'environment context', 'conversation: user']));
  });

  it('keeps MCP, dynamic and hosted tools apart from built-in ones', () => {
    const body = loadFixture('fallback-text-1.json').request!.body;
    body.tools.push(
      {
        type: 'namespace',
        name: 'mcp__mini',
        description: 'Mini MCP server',
        tools: [{ type: 'function', name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: {} } }],
      },
      { type: 'function', name: 'ticket_lookup', description: 'A client-provided tool.', parameters: { type: 'object', properties: {} } },
    );
    const sections = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).sections;
    const kind = (name: string) => sections.find((s) => s.name === name)?.tool?.kind;
    expect([kind('tool:mcp__mini.echo'), kind('tool:ticket_lookup'), kind('tool:web_search'), kind('tool:exec_command')]).toEqual([
      'mcp',
      'dynamic',
      'hosted',
      'builtin',
    ]);
  });

  it('puts AGENTS.md, the environment context and the local compaction summary in their own sections', () => {
    const agents = contextBreakdown(loadFixture('fallback-text-1.json').request!.body, { reportedInputTokens: null, contextWindow: null });
    expect(agents.sections.find((s) => s.name === 'user instructions')!.tokens).toBeGreaterThan(20);
    const compacted = contextBreakdown(loadFixture('fallback-compaction-local-3.json').request!.body, {
      reportedInputTokens: null,
      contextWindow: null,
    });
    expect(compacted.sections.find((s) => s.name === 'compaction summary')).toMatchObject({ items: 1, group: 'input' });
  });

  it('counts encrypted reasoning replays as opaque bytes beside their readable summary', () => {
    const body = loadFixture('c-reasoning-2.json').request!.body;
    const replay = body.input.find((i: any) => i.type === 'reasoning');
    const reasoning = contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).sections.find(
      (s) => s.name === 'reasoning',
    )!;
    expect(reasoning.opaqueBytes).toBe(replay.encrypted_content.length);
    expect(reasoning.tokens).toBeLessThan(replay.encrypted_content.length / 2);
  });

  it('scales a calibrated view to exactly the reported input tokens, labelled apart from the raw estimate', () => {
    const body = loadFixture('codemode-tool-call-2.json').request!.body;
    const b = contextBreakdown(body, { reportedInputTokens: 12100, contextWindow: 272000 });
    expect(b.sections.reduce((a, s) => a + s.calibratedTokens!, 0)).toBe(12100);
    expect(b.totalTokens).not.toBe(12100);
    expect(b.reportedInputTokens).toBe(12100);
    expect(b.windowShare).toBeCloseTo(12100 / 272000, 10);
  });

  it('leaves the window share unknown when the context window is', () => {
    const b = contextBreakdown(loadFixture('a-plain-text-1.json').request!.body, { reportedInputTokens: 5000, contextWindow: null });
    expect(b.windowShare).toBeNull();
    expect(b.contextWindow).toBeNull();
  });

  it('apportions a total over weights so the parts sum to it exactly', () => {
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(apportion(7, [0, 0])).toEqual([0, 0]);
    expect(apportion(12100, [3, 5, 11, 13]).reduce((a, b) => a + b, 0)).toBe(12100);
  });
});

describe('rendered blocks', () => {
  it('start cleanly and end with a newline even for odd roles, names and texts', () => {
    const body = {
      input: [
        { type: 'message', role: ' user', content: [{ type: 'input_text', text: '/review this' }] },
        { type: 'message', role: 'user', content: '  plain string content' },
        { type: 'function_call', name: '/odd', arguments: '' },
        { type: '', foo: 1 },
      ],
      tools: [{ type: 'function', name: ' spaced', description: '\n', parameters: {} }],
    };
    const blocks = renderRequest(body);
    expect(blocks).toHaveLength(5);
    for (const b of blocks) {
      expect(b.text).toMatch(/^[^\s/]/);
      expect(b.text.endsWith('\n')).toBe(true);
    }
    const whole = blocks.map((b) => b.text).join('');
    expect(contextBreakdown(body, { reportedInputTokens: null, contextWindow: null }).totalTokens).toBe(count(whole));
  });
});
