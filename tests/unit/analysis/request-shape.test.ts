import { describe, expect, it } from 'vitest';
import { contentTexts, readRequest, zoneOf } from '../../../companion/analysis/request-shape';
import { loadFixture } from '../../support/records';

const dev = (text: string) => ({ type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('readRequest', () => {
  it('reads the fields of a real Codex 0.169 request, which sends no instructions field', () => {
    const body = loadFixture('codemode-text-1.json').request!.body;
    const shape = readRequest(body);
    expect(shape.body).toBe(body);
    expect(shape.input).toBe(body.input);
    expect(shape).toMatchObject({
      model: body.model,
      reasoningEffort: body.reasoning.effort,
      serviceTier: body.service_tier ?? null,
      promptCacheKey: body.prompt_cache_key,
      instructions: null,
    });
    // The catalog and the developer messages lead; the first user message opens the conversation.
    const firstConversation = body.input.findIndex(
      (i: { type: string; role?: string }) => i.type !== 'additional_tools' && !(i.type === 'message' && i.role === 'developer'),
    );
    expect(firstConversation).toBeGreaterThan(1);
    expect(shape.conversationStart).toBe(firstConversation);
  });

  it('counts leading catalogs and developer or system messages, and stops at the first other item', () => {
    const input = [
      { type: 'additional_tools', tools: [] },
      dev('a'),
      { type: 'message', role: 'system', content: 's' },
      user('u'),
      dev('b'),
    ];
    expect(readRequest({ input }).conversationStart).toBe(3);
    expect(readRequest({ input: [dev('a'), dev('b')] }).conversationStart).toBe(2);
    expect(readRequest({ input: [user('u'), dev('a')] }).conversationStart).toBe(0);
  });

  it('reads the model, effort, tier, cache key and instructions, null when absent or empty', () => {
    const shape = readRequest({
      model: 'gpt-5.5',
      reasoning: { effort: 'high' },
      service_tier: 'priority',
      prompt_cache_key: 'k1',
      instructions: 'Be brief.',
    });
    expect(shape).toMatchObject({
      model: 'gpt-5.5',
      reasoningEffort: 'high',
      serviceTier: 'priority',
      promptCacheKey: 'k1',
      instructions: 'Be brief.',
    });
    const empty = readRequest({ model: '', reasoning: 'high', service_tier: 3, prompt_cache_key: null, instructions: 7 });
    expect(empty).toMatchObject({ model: null, reasoningEffort: null, serviceTier: null, promptCacheKey: null, instructions: null });
  });

  it('keeps an empty instructions string: the field was sent', () => {
    expect(readRequest({ instructions: '' }).instructions).toBe('');
  });

  it('reads a body that is not an object as an empty request', () => {
    for (const body of [null, 'text', [1, 2], undefined]) {
      expect(readRequest(body)).toEqual({
        body: {},
        input: [],
        conversationStart: 0,
        model: null,
        reasoningEffort: null,
        serviceTier: null,
        promptCacheKey: null,
        instructions: null,
      });
    }
    expect(readRequest({ input: 'not a list' }).input).toEqual([]);
  });
});

describe('zoneOf', () => {
  const shape = () => readRequest({ input: [{ type: 'additional_tools', tools: [] }, dev('base'), user('hi'), dev('later')] });

  it('puts leading catalogs under tools and leading messages under instructions', () => {
    expect(zoneOf(shape(), 0)).toBe('tools');
    expect(zoneOf(shape(), 1)).toBe('instructions');
  });

  it('puts everything from the first conversation item on in the conversation, catalogs included', () => {
    expect(zoneOf(shape(), 2)).toBe('conversation');
    expect(zoneOf(shape(), 3)).toBe('conversation');
    const late = readRequest({ input: [user('hi'), { type: 'additional_tools', tools: [] }] });
    expect(zoneOf(late, 1)).toBe('conversation');
  });
});

describe('contentTexts', () => {
  it('reads a string content as one text', () => {
    expect(contentTexts({ content: 'plain' })).toEqual(['plain']);
  });

  it('reads text parts, refusals, and an empty string for parts with neither, in order', () => {
    const item = {
      content: [
        { type: 'output_text', text: 'a' },
        { type: 'refusal', refusal: 'no' },
        { type: 'input_image', image_url: 'x' },
        'raw',
        { text: 3 },
      ],
    };
    expect(contentTexts(item)).toEqual(['a', 'no', '', '']);
  });

  it('prefers the text over a refusal in the same part', () => {
    expect(contentTexts({ content: [{ text: 't', refusal: 'r' }] })).toEqual(['t']);
  });

  it('reads no texts from an item without content', () => {
    expect(contentTexts({ type: 'function_call' })).toEqual([]);
  });
});
