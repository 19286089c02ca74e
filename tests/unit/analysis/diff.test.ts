import { describe, expect, it } from 'vitest';
import { diffExchanges } from '../../../companion/analysis/diff';
import { RequestDiffSchema } from '../../../companion/protocol/analysis';
import { loadFixture, recordFrom, type Fixture } from '../../support/records';

// Fixture bodies are untyped JSON; the tests index into them with `any`.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** The diff of a real pair, its second request edited by `edit`. */
async function diffOf(base: 'fallback-tool-call' | 'codemode-tool-call', edit: (fx: Fixture) => void = () => undefined) {
  const second = loadFixture(`${base}-2.json`);
  edit(second);
  const previous = await recordFrom(loadFixture(`${base}-1.json`), { id: 'prev', startedAt: T0 });
  const current = await recordFrom(second, { id: 'cur', startedAt: T0 + 5000 });
  return diffExchanges(previous, current);
}

const catalogOf = (fx: Fixture) => fx.request!.body.input.find((i: any) => i.type === 'additional_tools');

describe('diffExchanges', () => {
  it('shows a normal turn as appended items, the first echoing the previous output', async () => {
    const d = await diffOf('fallback-tool-call');
    expect(RequestDiffSchema.parse(d)).toEqual(d);
    expect(d).toMatchObject({ previousId: 'prev', prefixPreserved: true, firstDivergence: null, fields: [] });
    expect(d.input.appended.items.map((i) => i.type)).toEqual(['function_call', 'function_call_output']);
    expect(d.input).toMatchObject({ commonPrefix: 2, echoed: 1, rewritten: false, removed: { count: 0 }, changed: { count: 0 } });
    expect(d.tools).toEqual({ added: [], removed: [], changed: [] });
  });

  it('ignores item ids, which never reach the model', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      for (const item of fx.request!.body.input) if (item.id) item.id = `${item.id}-regenerated`;
    });
    expect(d.prefixPreserved).toBe(true);
    expect(d.instructions.changed.count).toBe(0);
  });

  it('lists tools added, removed and changed wherever they travel', async () => {
    const d = await diffOf('codemode-tool-call', (fx) => {
      const catalog = catalogOf(fx);
      catalog.tools = catalog.tools.filter((ns: any) => ns.name !== 'clock');
      const functions = catalog.tools.find((ns: any) => ns.name === 'functions');
      functions.tools.find((t: any) => t.name === 'wait').description += ' Changed.';
      fx.request!.body.tools = [{ type: 'web_search', external_web_access: false }];
    });
    expect(d.tools.added).toEqual([{ key: 'web_search', namespace: null, name: 'web_search', placement: 'tools', kind: 'hosted' }]);
    expect(d.tools.removed.map((t) => t.key)).toEqual(['clock.sleep']);
    expect(d.tools.changed).toEqual([
      { key: 'wait', namespace: 'functions', name: 'wait', placement: 'additional_tools', kind: 'builtin', fields: ['description'] },
    ]);
    expect(d.firstDivergence).toEqual({ index: 0, zone: 'tools' });
  });

  it('still finds a changed catalog tool when body.tools was resent as it was', async () => {
    // The same tool list, text for text (two objects, as two parsed requests), is where the diff
    // skips comparing body.tools tool by tool.
    const [first, second] = [loadFixture('codemode-tool-call-1.json'), loadFixture('codemode-tool-call-2.json')];
    for (const fx of [first, second]) fx.request!.body.tools = [{ type: 'web_search', external_web_access: false }];
    const functions = catalogOf(second).tools.find((ns: any) => ns.name === 'functions');
    functions.tools.find((t: any) => t.name === 'wait').description += ' Changed.';
    const d = diffExchanges(
      await recordFrom(first, { id: 'prev', startedAt: T0 }),
      await recordFrom(second, { id: 'cur', startedAt: T0 + 5000 }),
    );
    expect(d.tools).toEqual({
      added: [],
      removed: [],
      changed: [
        { key: 'wait', namespace: 'functions', name: 'wait', placement: 'additional_tools', kind: 'builtin', fields: ['description'] },
      ],
    });
  });

  it('finds a tool of body.tools changed in place, its list otherwise the same', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const tool = fx.request!.body.tools.find((t: any) => t.type === 'function');
      tool.description += ' Changed.';
    });
    expect(d.tools.added).toEqual([]);
    expect(d.tools.removed).toEqual([]);
    expect(d.tools.changed).toHaveLength(1);
    expect(d.tools.changed[0]).toMatchObject({ placement: 'tools', fields: ['description'] });
  });

  it('does not count deferred tools arriving in a tool_search_output as a tool change', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.input.push({
        type: 'tool_search_output',
        call_id: 'ts_1',
        status: 'completed',
        execution: 'client',
        tools: [
          {
            type: 'function',
            name: 'mcp__mini__echo',
            description: 'Echo.',
            defer_loading: true,
            parameters: { type: 'object', properties: {} },
          },
        ],
      });
    });
    expect(d.tools).toEqual({ added: [], removed: [], changed: [] });
    expect(d.input.appended.items.at(-1)!.type).toBe('tool_search_output');
  });

  it('reports leading developer messages added or changed as instructions', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const input = fx.request!.body.input;
      input[1].content[1].text += '\nNetwork access is enabled.';
      input.splice(2, 0, {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: '<collaboration_mode>plan</collaboration_mode>' }],
      });
    });
    expect(d.instructions.changed.items).toEqual([expect.objectContaining({ index: 1, previousIndex: 1, fields: ['content'] })]);
    expect(d.instructions.added.items).toEqual([expect.objectContaining({ index: 2, role: 'developer' })]);
    expect(d.firstDivergence).toEqual({ index: 1, zone: 'instructions' });
  });

  it('tells removed, changed and appended conversation items apart', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const input = fx.request!.body.input;
      input[3].content[0].text = 'run echo hello';
      input.splice(2, 1); // the environment context
      input.splice(3, 0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'also list files' }] });
    });
    expect(d.input.removed.items.map((i) => i.label)).toEqual([expect.stringMatching(/^user: <environment_context>/)]);
    expect(d.input.changed.items).toEqual([
      expect.objectContaining({ label: 'user: run echo hello', previousIndex: 3, fields: ['content'] }),
    ]);
    expect(d.input.appended.items.map((i) => i.label)).toEqual([
      'user: also list files',
      expect.stringMatching(/^exec_command/),
      expect.stringMatching(/^output call_1/),
    ]);
    expect(d.prefixPreserved).toBe(false);
  });

  it('reports an item inserted before the end of the previous conversation', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.input.splice(3, 0, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first, a note' }] });
    });
    expect(d.input.inserted.items).toEqual([expect.objectContaining({ index: 3, label: 'user: first, a note' })]);
    expect(d.input.commonPrefix).toBe(1);
    expect(d.firstDivergence).toEqual({ index: 3, zone: 'conversation' });
  });

  it('marks a compaction as a rewrite and shows the window change', async () => {
    const previous = await recordFrom(loadFixture('fallback-compaction-local-2.json'), { startedAt: T0 });
    const current = await recordFrom(loadFixture('fallback-compaction-local-3.json'), { startedAt: T0 + 5000 });
    const d = diffExchanges(previous, current);
    expect(d.input.rewritten).toBe(true);
    expect(d.fields).toEqual(expect.arrayContaining([{ field: 'window_number', from: '0', to: '1' }]));
    expect(d.input.removed.items.map((i) => i.type)).toEqual(['function_call', 'function_call_output']);
  });

  it('marks the arrival of a remote compaction item as a rewrite', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const input = fx.request!.body.input;
      input.splice(3, input.length - 3, { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA' + 'x'.repeat(64) });
    });
    expect(d.input.rewritten).toBe(true);
  });

  it('shows changed top-level fields with their values', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.service_tier = 'flex';
      fx.request!.body.parallel_tool_calls = false;
    });
    expect(d.fields).toEqual([
      { field: 'service_tier', from: null, to: 'flex' },
      { field: 'parallel_tool_calls', from: 'true', to: 'false' },
    ]);
  });

  it('caps long item lists but keeps their exact count', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      for (let i = 0; i < 150; i++)
        fx.request!.body.input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `note ${i}` }] });
    });
    expect(d.input.appended.count).toBe(152);
    expect(d.input.appended.items).toHaveLength(100);
  });
});

describe('prefix preservation', () => {
  it('ignores transport fields such as stream and generate', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.stream = false;
      fx.request!.body.generate = true;
    });
    expect(d.fields.map((f) => f.field)).toEqual(['generate', 'stream']);
    expect(d.prefixPreserved).toBe(true);
  });
});

describe('a captured request against one read from a Codex rollout', () => {
  /** What the rollout holds of the second request: model, effort and input; no tools, cache key, route or other fields. */
  async function mixedPair() {
    const previous = await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: 'prev', startedAt: T0 });
    const captured = await recordFrom(loadFixture('fallback-tool-call-2.json'), { id: 'cur', startedAt: T0 + 5000 });
    const body = captured.request.body as { model: string; input: unknown[]; reasoning?: unknown };
    const fromRollout = {
      ...captured,
      source: 'rollout' as const,
      route: { ...captured.route, profileId: 'rollout', upstream: 'openai' },
      request: { ...captured.request, headers: {}, body: { model: body.model, input: body.input, reasoning: body.reasoning } },
    };
    return { previous, captured, fromRollout };
  }

  it('names no change of what the rollout does not hold (tools, cache key, route, body fields)', async () => {
    const { previous, fromRollout } = await mixedPair();
    const d = diffExchanges(previous, fromRollout);
    expect(d.fields).toEqual([]);
    expect(d.tools).toEqual({ added: [], removed: [], changed: [] });
    expect(d.input.appended.items.map((i) => i.type)).toEqual(['function_call', 'function_call_output']);
  });

  it('still names a change of model, which the rollout holds', async () => {
    const { previous, fromRollout } = await mixedPair();
    const d = diffExchanges(previous, {
      ...fromRollout,
      request: { ...fromRollout.request, body: { ...(fromRollout.request.body as object), model: 'gpt-5.5' } },
    });
    expect(d.fields).toEqual([{ field: 'model', from: 'gpt-5-codex', to: 'gpt-5.5' }]);
  });
});
