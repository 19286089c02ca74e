import { describe, expect, it } from 'vitest';
import { changedPromptFields, echoKey, itemRef, promptKey, sameItem } from '../../../companion/analysis/item-label';
import { loadFixture } from '../../support/records';

describe('itemRef', () => {
  it('labels messages with their role and joined texts, cut to 60 characters', () => {
    const item = {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'run' },
        { type: 'input_text', text: 'echo\n hi' },
      ],
    };
    expect(itemRef(item, 3)).toEqual({ index: 3, type: 'message', role: 'user', label: 'user: run echo hi', labelCode: null });
    const long = { type: 'message', role: 'assistant', content: 'a'.repeat(70) };
    expect(itemRef(long, 0).label).toBe(`assistant: ${'a'.repeat(59)}…`);
    expect(itemRef({ type: 'message', content: 'x' }, 0)).toMatchObject({ role: null, label: 'message: x' });
  });

  it('labels calls with namespace, name and clipped arguments or input', () => {
    expect(itemRef({ type: 'function_call', namespace: 'ns', name: 'f', arguments: '{"cmd":"echo hi"}' }, 1)).toEqual({
      index: 1,
      type: 'function_call',
      role: null,
      label: 'ns.f({"cmd":"echo hi"})',
      labelCode: null,
    });
    expect(itemRef({ type: 'function_call', name: 'f', arguments: 'x'.repeat(50) }, 0).label).toBe(`f(${'x'.repeat(39)}…)`);
    expect(itemRef({ type: 'function_call', name: 'f' }, 0).label).toBe('f()');
    expect(itemRef({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n' }, 0).label).toBe(
      'apply_patch: *** Begin Patch',
    );
    expect(itemRef({ type: 'custom_tool_call', name: 'apply_patch' }, 0).label).toBe('apply_patch: ');
  });

  it('words outputs with their call id and clipped text, with a code', () => {
    expect(itemRef({ type: 'function_call_output', call_id: 'call_1', output: 'hi' }, 2)).toEqual({
      index: 2,
      type: 'function_call_output',
      role: null,
      label: 'output call_1: hi',
      labelCode: { code: 'item.output', params: { callId: 'call_1', text: 'hi' } },
    });
    expect(itemRef({ type: 'custom_tool_call_output', output: [{ type: 'input_text', text: 'a' }] }, 0).label).toBe(
      'output : [{"type":"input_text","text":"a"}]',
    );
    expect(itemRef({ type: 'function_call_output', call_id: 'c' }, 0).label).toBe('output c: ""');
    expect(itemRef({ type: 'function_call_output', call_id: 'c', output: 'y'.repeat(45) }, 0).label).toBe(`output c: ${'y'.repeat(39)}…`);
  });

  it('words reasoning with its summaries, cut to 50 characters', () => {
    const item = { type: 'reasoning', summary: [{ text: 'Plan' }, 'skip', null, { text: 'then act' }, {}] };
    expect(itemRef(item, 0)).toMatchObject({
      label: 'reasoning: Plan then act',
      labelCode: { code: 'item.reasoning', params: { text: 'Plan then act' } },
    });
    expect(itemRef({ type: 'reasoning', summary: [{ text: 'z'.repeat(60) }] }, 0).label).toBe(`reasoning: ${'z'.repeat(49)}…`);
    expect(itemRef({ type: 'reasoning', summary: 'not a list' }, 0).label).toBe('reasoning: ');
  });

  it('words agent messages by author and recipient', () => {
    expect(itemRef({ type: 'agent_message', author: '/root', recipient: '/root/a' }, 0).label).toBe('agent message /root → /root/a');
    expect(itemRef({ type: 'agent_message' }, 0).labelCode).toEqual({ code: 'item.agentMessage', params: { author: '?', recipient: '?' } });
  });

  it('labels other items by their type, and values that are not items as text', () => {
    expect(itemRef({ type: 'compaction', encrypted_content: 'x' }, 0)).toMatchObject({
      type: 'compaction',
      label: 'compaction',
      labelCode: null,
    });
    expect(itemRef({ id: 'x' }, 0)).toMatchObject({ type: 'unknown', label: 'item' });
    expect(itemRef('text', 4)).toEqual({ index: 4, type: 'unknown', role: null, label: 'text', labelCode: null });
    expect(itemRef(null, 0).label).toBe('null');
  });

  it('labels a real request’s prompt', () => {
    const input = loadFixture('fallback-text-1.json').request!.body.input;
    expect(itemRef(input.at(-1), input.length - 1)).toEqual({
      index: input.length - 1,
      type: 'message',
      role: 'user',
      label: 'user: say hello',
      labelCode: null,
    });
  });
});

describe('sameItem', () => {
  it('matches items of the same type and role, however their content differs', () => {
    expect(sameItem({ type: 'message', role: 'user', content: 'a' }, { type: 'message', role: 'user', content: 'b' })).toBe(true);
    expect(sameItem({ type: 'message', role: 'user' }, { type: 'message', role: 'assistant' })).toBe(false);
    expect(sameItem({ type: 'message', role: 'user' }, { type: 'function_call' })).toBe(false);
    expect(sameItem({ type: 'function_call' }, { type: 'custom_tool_call' })).toBe(false);
    // An absent role and a null one are the same.
    expect(sameItem({ type: 'reasoning' }, { type: 'reasoning', role: null })).toBe(true);
  });

  it('tells apart items whose call ids or ids both exist and differ', () => {
    expect(sameItem({ type: 'function_call', call_id: 'a' }, { type: 'function_call', call_id: 'b' })).toBe(false);
    expect(sameItem({ type: 'function_call', id: 'a' }, { type: 'function_call', id: 'b' })).toBe(false);
    expect(sameItem({ type: 'function_call', call_id: 'a', id: 'x' }, { type: 'function_call', call_id: 'a', id: 'x' })).toBe(true);
    // Only one side has one: still the same item.
    expect(sameItem({ type: 'function_call', call_id: 'a' }, { type: 'function_call' })).toBe(true);
    expect(sameItem({ type: 'function_call', id: '' }, { type: 'function_call', id: 'b' })).toBe(true);
    expect(sameItem({ type: 'function_call' }, { type: 'function_call', id: 'b' })).toBe(true);
  });

  it('never matches values that are not items', () => {
    expect(sameItem('a', 'a')).toBe(false);
    expect(sameItem({ type: 'x' }, null)).toBe(false);
    expect(sameItem(null, { type: 'x' })).toBe(false);
  });
});

describe('echoKey', () => {
  it('identifies an item by type and call id, else id', () => {
    expect(echoKey({ type: 'function_call', call_id: 'c1', id: 'fc_1' })).toBe('function_call:c1');
    expect(echoKey({ type: 'reasoning', id: 'rs_1' })).toBe('reasoning:rs_1');
    expect(echoKey({ type: 'reasoning', call_id: '', id: 'rs_1' })).toBe('reasoning:rs_1');
  });

  it('gives no key without an id, or for values that are not items', () => {
    expect(echoKey({ type: 'message', role: 'user' })).toBeNull();
    expect(echoKey({ type: 'message', id: '' })).toBeNull();
    expect(echoKey('x')).toBeNull();
    expect(echoKey(null)).toBeNull();
  });
});

describe('promptKey and changedPromptFields', () => {
  it('ignores item ids, status and metadata passthrough, and key order', () => {
    const a = { type: 'message', role: 'user', content: 'hi', id: 'msg_1', status: 'completed' };
    const b = { content: 'hi', role: 'user', type: 'message', id: 'msg_2', internal_chat_message_metadata_passthrough: { x: 1 } };
    expect(promptKey(a)).toBe('{"content":"hi","role":"user","type":"message"}');
    expect(promptKey(b)).toBe(promptKey(a));
    expect(changedPromptFields(a, b)).toEqual([]);
  });

  it('names the fields that reach the model and differ, sorted', () => {
    const a = { type: 'function_call', name: 'f', arguments: '{}', id: '1' };
    const b = { type: 'function_call', name: 'g', arguments: '{"a":1}', id: '2', status: 'x' };
    expect(changedPromptFields(a, b)).toEqual(['arguments', 'name']);
  });

  it('keys values that are not items as their canonical JSON', () => {
    expect(promptKey('text')).toBe('"text"');
    expect(promptKey([{ id: 1, b: 2 }])).toBe('[{"b":2,"id":1}]');
  });
});
