import { describe, expect, it } from 'vitest';
import { diffExchanges } from '../../../companion/analysis/diff';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { loadFixture, recordFrom, type Fixture, type RecordOptions } from '../../support/records';

// Fixture bodies are untyped JSON; the tests index into them with `any`.
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A real pair of requests, the first edited by `editPrev` and the second by `editCur`. */
async function pairOf(
  base: 'fallback-tool-call' | 'codemode-tool-call',
  editCur: (fx: Fixture) => void = () => undefined,
  editPrev: (fx: Fixture) => void = () => undefined,
  cur: RecordOptions = {},
) {
  const first = loadFixture(`${base}-1.json`);
  const second = loadFixture(`${base}-2.json`);
  editPrev(first);
  editCur(second);
  const previous = await recordFrom(first, { id: 'prev', startedAt: T0 });
  const current = await recordFrom(second, { id: 'cur', startedAt: T0 + 5000, ...cur });
  return { previous, current };
}
const diffOf = async (...args: Parameters<typeof pairOf>) => {
  const { previous, current } = await pairOf(...args);
  return diffExchanges(previous, current);
};
const body = (r: ExchangeRecord) => r.request.body as Record<string, any>;
const withBody = (r: ExchangeRecord, edit: (b: Record<string, any>) => void): ExchangeRecord => {
  const b = structuredClone(body(r));
  edit(b);
  return { ...r, request: { ...r.request, body: b } };
};

describe('the top-level fields of a diff', () => {
  it('names each prompt field once, under its own name, with both values', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const b = fx.request!.body;
      b.model = 'gpt-6-sol';
      b.reasoning = { summary: 'auto', effort: 'high' };
      b.prompt_cache_key = 'another-key';
      b.instructions = 'Be brief.';
      b.client_metadata = { 'x-codex-turn-metadata': '{}' };
    });
    expect(d.fields).toEqual([
      { field: 'model', from: 'gpt-5-codex', to: 'gpt-6-sol' },
      { field: 'reasoning_effort', from: null, to: 'high' },
      { field: 'prompt_cache_key', from: '01a22950-a054-7d61-961c-93663e75bb90', to: 'another-key' },
      { field: 'instructions', from: null, to: 'Be brief.' },
    ]);
    expect(d.prefixPreserved).toBe(false);
  });

  it('names other reasoning settings by their key, the effort only once', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.reasoning = { summary: 'detailed', effort: 'low' };
    });
    expect(d.fields).toEqual([
      { field: 'reasoning_effort', from: null, to: 'low' },
      { field: 'reasoning.summary', from: 'auto', to: 'detailed' },
    ]);
  });

  it('reads reasoning that is not an object as no settings', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.reasoning = 'auto';
    });
    expect(d.fields).toEqual([{ field: 'reasoning.summary', from: 'auto', to: null }]);
  });

  it('shows a structured value as one clipped line of JSON, and an absent or null one as none', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.text = { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', description: 'x'.repeat(200) } } };
      fx.request!.body.tool_choice = null;
    });
    const text = d.fields.find((f) => f.field === 'text')!;
    expect(text.from).toBeNull();
    expect(text.to).toHaveLength(120);
    expect(text.to!.startsWith('{"format":{"type":"json_schema","name":"answer","schema":{"type":"object","description":"xxx')).toBe(true);
    expect(text.to!.endsWith('x…')).toBe(true);
    expect(d.fields.find((f) => f.field === 'tool_choice')).toEqual({ field: 'tool_choice', from: 'auto', to: null });
  });

  it('calls an absent field and a null one the same', async () => {
    const d = await diffOf(
      'fallback-tool-call',
      (fx) => {
        fx.request!.body.metadata = null;
      },
      (fx) => {
        delete fx.request!.body.metadata;
      },
    );
    expect(d.fields).toEqual([]);
  });

  it('lists the other body fields in name order, never the input, tools or client metadata', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const b = fx.request!.body;
      b.zeta = 1;
      b.alpha = [1, 2];
      b.store = true;
      b.client_metadata = { other: 'x' };
      b.input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'more' }] });
      b.tools = b.tools.slice(1);
    });
    expect(d.fields).toEqual([
      { field: 'alpha', from: null, to: '[1,2]' },
      { field: 'store', from: 'false', to: 'true' },
      { field: 'zeta', from: null, to: '1' },
    ]);
  });

  it('names a change of upstream, profile or context window from the records', async () => {
    const { previous, current } = await pairOf('fallback-tool-call', undefined, undefined, {
      route: { upstream: 'https://example.test/v1', profileId: 'work' },
    });
    const moved = { ...current, identity: { ...current.identity, windowNumber: 2 } };
    expect(diffExchanges(previous, moved).fields).toEqual([
      { field: 'upstream', from: 'https://api.openai.com/v1', to: 'https://example.test/v1' },
      { field: 'profile', from: 'default', to: 'work' },
      { field: 'window_number', from: '0', to: '2' },
    ]);
  });

  it('compares every field when both sides were read from rollouts', async () => {
    const { previous, current } = await pairOf('fallback-tool-call', (fx) => {
      fx.request!.body.service_tier = 'flex';
    });
    const d = diffExchanges({ ...previous, source: 'rollout' }, { ...current, source: 'rollout' });
    expect(d.fields).toEqual([{ field: 'service_tier', from: null, to: 'flex' }]);
  });

  it('still names the effort when only one side was read from a rollout', async () => {
    const { previous, current } = await pairOf('fallback-tool-call', (fx) => {
      fx.request!.body.reasoning = { summary: 'auto', effort: 'high' };
      fx.request!.body.service_tier = 'flex';
      fx.request!.body.tools = [];
    });
    const d = diffExchanges(previous, { ...current, source: 'rollout' });
    expect(d.fields).toEqual([{ field: 'reasoning_effort', from: null, to: 'high' }]);
    expect(d.tools).toEqual({ added: [], removed: [], changed: [] });
    expect(diffExchanges({ ...previous, source: 'rollout' }, current).fields).toEqual([
      { field: 'reasoning_effort', from: null, to: 'high' },
    ]);
  });
});

describe('the tools of a diff', () => {
  it('lists a tool dropped from body.tools as removed, and a changed schema by field', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const tools = fx.request!.body.tools;
      fx.request!.body.tools = tools.filter((t: any) => t.name !== 'view_image');
      const exec = tools.find((t: any) => t.name === 'exec_command');
      exec.parameters = { ...exec.parameters, required: [] };
      exec.strict = true;
    });
    expect(d.tools.added).toEqual([]);
    expect(d.tools.removed.map((t) => t.key)).toEqual(['view_image']);
    expect(d.tools.changed.map((t) => [t.key, t.fields])).toEqual([['exec_command', ['other', 'parameters']]]);
    expect(d.prefixPreserved).toBe(false);
    expect(d.firstDivergence).toBeNull();
  });

  it('calls a changed tool type a change of its type', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const t = fx.request!.body.tools.find((x: any) => x.name === 'get_goal');
      t.type = 'custom';
    });
    expect(d.tools.changed.map((t) => [t.key, t.fields])).toEqual([['get_goal', ['type']]]);
  });

  it('leaves a catalog that arrives inside the conversation out of the prefix tools', async () => {
    const d = await diffOf('codemode-tool-call', (fx) => {
      const input = fx.request!.body.input;
      const catalog = structuredClone(input.find((i: any) => i.type === 'additional_tools'));
      for (const ns of catalog.tools) for (const t of ns.tools ?? []) t.description = `${t.description ?? ''} (late)`;
      input.push(catalog);
    });
    expect(d.tools).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe('the leading developer messages of a diff', () => {
  it('lists a developer message the current request lacks as removed', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.input.splice(1, 1);
    });
    expect(d.instructions.added.count).toBe(0);
    expect(d.instructions.changed.count).toBe(0);
    expect(d.instructions.removed).toEqual({ count: 1, items: [expect.objectContaining({ index: 1, role: 'developer' })] });
    expect(d.firstDivergence).toEqual({ index: 1, zone: 'conversation' });
  });

  it('compares developer messages position by position, giving both positions', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      fx.request!.body.input[0].content[0].text += ' Be terse.';
    });
    expect(d.instructions.changed.items).toEqual([
      expect.objectContaining({ index: 0, previousIndex: 0, fields: ['content'], role: 'developer' }),
    ]);
    expect(d.firstDivergence).toEqual({ index: 0, zone: 'instructions' });
  });
});

describe('the conversation of a diff', () => {
  it('finds the first divergence at the end of a current input shorter than the previous one', async () => {
    const { previous, current } = await pairOf('fallback-tool-call');
    const shorter = withBody(previous, (b) => b.input.splice(3));
    const d = diffExchanges(current, shorter);
    expect(d.firstDivergence).toEqual({ index: 3, zone: 'conversation' });
    expect(d.input.removed.count).toBe(3);
    expect(d.prefixPreserved).toBe(false);
    const noConversation = withBody(previous, (b) => b.input.splice(2));
    expect(diffExchanges(previous, noConversation).firstDivergence).toEqual({ index: 2, zone: 'conversation' });
    const fewerInstructions = withBody(previous, (b) => b.input.splice(1));
    expect(diffExchanges(previous, fewerInstructions).firstDivergence).toEqual({ index: 1, zone: 'instructions' });
  });

  it('counts the appended items that echo the previous response’s output', async () => {
    const d = await diffOf('fallback-tool-call');
    expect(d.input).toMatchObject({ previousCount: 2, currentCount: 4, commonPrefix: 2, echoed: 1 });
    const { previous, current } = await pairOf('fallback-tool-call');
    const noOutput = { ...previous, response: { ...previous.response, output: [] } };
    expect(diffExchanges(noOutput, current).input.echoed).toBe(0);
  });

  it('calls a compaction summary new to this request a rewrite, but not one already there', async () => {
    const previous = await recordFrom(loadFixture('fallback-compaction-local-2.json'), { id: 'prev', startedAt: T0 });
    const current = await recordFrom(loadFixture('fallback-compaction-local-3.json'), { id: 'cur', startedAt: T0 + 5000 });
    const sameWindow = { ...current, identity: { ...current.identity, windowNumber: previous.identity.windowNumber } };
    expect(diffExchanges(previous, sameWindow).input.rewritten).toBe(true);
    const again = withBody(sameWindow, (b) =>
      b.input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go on' }] }),
    );
    expect(diffExchanges(sameWindow, again).input.rewritten).toBe(false);
  });

  it('calls a new context window a rewrite only when both windows are known', async () => {
    const { previous, current } = await pairOf('fallback-tool-call');
    const windowed = (r: ExchangeRecord, windowNumber: number | null) => ({ ...r, identity: { ...r.identity, windowNumber } });
    expect(diffExchanges(windowed(previous, 0), windowed(current, 1)).input.rewritten).toBe(true);
    expect(diffExchanges(windowed(previous, null), windowed(current, 1)).input.rewritten).toBe(false);
    expect(diffExchanges(windowed(previous, 0), windowed(current, null)).input.rewritten).toBe(false);
    expect(diffExchanges(windowed(previous, 1), windowed(current, 1)).input.rewritten).toBe(false);
  });

  it('does not take a user message or another item type for a compaction', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const input = fx.request!.body.input;
      input.push({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Another language model started to solve this problem' }],
      });
      input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Please go on.' }] });
      input.push({ type: 'reasoning', summary: [] });
    });
    expect(d.input.rewritten).toBe(false);
  });

  it('gives removed, inserted and changed items their positions in their own requests', async () => {
    const d = await diffOf('fallback-tool-call', (fx) => {
      const input = fx.request!.body.input;
      input[3].content[0].text = 'run echo hello';
    });
    expect(d.input.changed.items).toEqual([expect.objectContaining({ index: 3, previousIndex: 3, fields: ['content'] })]);
    expect(d.input.appended.items.map((i) => i.index)).toEqual([4, 5]);
  });

  it('calls only a user message holding a compaction summary a rewrite, wherever the summary sits in it', async () => {
    const summary = { type: 'input_text', text: 'Another language model started to solve this problem; here is its summary.' };
    const rewrittenBy = async (item: unknown) =>
      (
        await diffOf('fallback-tool-call', (fx) => {
          fx.request!.body.input.push(item);
        })
      ).input.rewritten;
    expect(await rewrittenBy({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'note' }, summary] })).toBe(true);
    expect(await rewrittenBy({ type: 'custom_item', role: 'user', content: [summary] })).toBe(false);
  });

  it('finds no divergence, and a preserved prefix, between two identical requests', async () => {
    const { previous } = await pairOf('fallback-tool-call');
    const d = diffExchanges(previous, { ...previous, id: 'retry' });
    expect(d.firstDivergence).toBeNull();
    expect(d.prefixPreserved).toBe(true);
    expect(d.input).toMatchObject({ previousCount: 2, currentCount: 2, commonPrefix: 2, appended: { count: 0 }, removed: { count: 0 } });
  });
});

describe('what keeps the prompt prefix', () => {
  it('ignores every transport field: stream, store, include, generate, previous_response_id, metadata', async () => {
    for (const [k, v] of Object.entries({
      stream: false,
      store: true,
      include: [],
      generate: false,
      previous_response_id: 'resp_1',
      metadata: { run: '1' },
    })) {
      const d = await diffOf('fallback-tool-call', (fx) => {
        fx.request!.body[k] = v;
      });
      expect([k, d.fields.map((f) => f.field), d.prefixPreserved]).toEqual([k, [k], true]);
    }
  });

  it('compares body tools of a request that opens straight with the conversation', async () => {
    const d = await diffOf(
      'fallback-tool-call',
      (fx) => {
        fx.request!.body.input.splice(0, 2);
        fx.request!.body.tools = fx.request!.body.tools.filter((t: any) => t.name !== 'view_image');
      },
      (fx) => {
        fx.request!.body.input.splice(0, 2);
      },
    );
    expect(d.tools.removed.map((t) => t.key)).toEqual(['view_image']);
    expect(d.prefixPreserved).toBe(false);
  });
});
