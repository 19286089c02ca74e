import { describe, expect, it } from 'vitest';
import { chatSpan, TurnSpan } from '../../../companion/pipeline/otlp/spans';
import { TurnTracker } from '../../../companion/pipeline/otlp/turns';
import type { SpanSpec } from '../../../companion/pipeline/otlp/spans';
import { recordOf } from '../../support/records';

describe('exchange records as GenAI spans', () => {
  it('leaves unknown usage out instead of sending 0', async () => {
    const r = await recordOf('a-plain-text-1.json');
    const known = chatSpan(r, { content: false }).attributes;
    expect(known['gen_ai.usage.input_tokens']).toBe(5000);
    expect(known['gen_ai.usage.cache_read.input_tokens']).toBe(4096);
    expect('gen_ai.usage.cache_creation.input_tokens' in known).toBe(false);
    const unknown = chatSpan({ ...r, usage: null }, { content: false }).attributes;
    expect(Object.keys(unknown).filter((k) => k.startsWith('gen_ai.usage.'))).toEqual([]);
  });

  it('sends no conversation text without --otlp-content, and the prompt with it', async () => {
    const r = await recordOf('a-plain-text-1.json');
    const user = (r.request.body as any).input.find((i: any) => i.role === 'user' && /echo|hi|say/i.test(JSON.stringify(i)));
    const text = user.content[0].text as string;
    expect(JSON.stringify(chatSpan(r, { content: false }))).not.toContain(text);
    const withContent = chatSpan(r, { content: true }).attributes;
    expect(JSON.parse(withContent['gen_ai.input.messages'] as string)).toContainEqual({
      role: 'user',
      parts: [{ type: 'text', content: text }],
    });
  });

  it('marks a failed exchange as an error with its type', async () => {
    const r = await recordOf('d-http429-usage-limit-1.json');
    const s = chatSpan(r, { content: false });
    expect(s.error).not.toBeNull();
    expect(s.attributes['gen_ai.response.finish_reasons']).toEqual(['error']);
    expect(s.attributes['error.type']).toBe(r.error!.upstreamCode ?? r.error!.code);
  });

  it("links a sub-agent's turn to its parent's turn root, derived from the ids Codex sent", async () => {
    const parent = await recordOf('e-subagent-v1-1.json');
    const child = await recordOf('e-subagent-v1-3.json');
    const parentRoot = new TurnSpan(parent);
    parentRoot.add(parent, 0);
    const childRoot = new TurnSpan(child);
    childRoot.add(child, 0);
    const p = parentRoot.toSpec();
    expect(childRoot.toSpec().links).toEqual([{ traceId: p.traceId, spanId: p.spanId, attributes: { 'codex.link.type': 'spawned_by' } }]);
    expect(p.links).toEqual([]);
    expect(chatSpan(parent, { content: false })).toMatchObject({ traceId: p.traceId, parentSpanId: p.spanId });
  });
});

describe('when a turn root span is sent', () => {
  it('after the thread starts its next turn, once, with the turn totals', async () => {
    const a = await recordOf('e-subagent-v1-1.json', { id: 'a' });
    const b = await recordOf('e-subagent-v1-2.json', { id: 'b' });
    const next = { ...(await recordOf('e-subagent-v1-4.json', { id: 'c' })), turnId: 'turn-2' };
    const sent: SpanSpec[] = [];
    const t = new TurnTracker((s) => sent.push(s), 30_000);
    t.add(a, 1);
    t.add(b, 2);
    expect(sent).toEqual([]);
    t.add(next, 3);
    expect(sent).toHaveLength(1);
    expect(sent[0].attributes).toMatchObject({ 'codex.turn.exchanges': 2, 'codex.turn.tokens_used': 2 * (6000 - 5000 + 40) });
    t.add({ ...b, id: 'late' }, 4);
    t.endAll();
    expect(sent.map((s) => s.attributes['codex.turn.id'])).toEqual([a.turnId, 'turn-2']);
  });

  it('after the idle time, and at once for an exchange without a turn (a prewarm)', async () => {
    const a = await recordOf('a-plain-text-1.json', { id: 'a' });
    const sent: SpanSpec[] = [];
    const t = new TurnTracker((s) => sent.push(s), 1000);
    t.add({ ...a, id: 'p', turnId: null }, 0);
    expect(sent).toHaveLength(1);
    t.add(a, 0);
    t.sweep(999);
    expect(sent).toHaveLength(1);
    t.sweep(1000);
    expect(sent).toHaveLength(2);
  });
});
