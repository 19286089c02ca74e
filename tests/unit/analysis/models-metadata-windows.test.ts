import { describe, expect, it } from 'vitest';
import { contextWindowLookup, contextWindowsFromModels } from '../../../companion/analysis/models-metadata';

describe('context windows read from model metadata', () => {
  it('reads an OpenAI-style `data` list by id beside Codex’s `models` list by slug', () => {
    const body = { models: [{ slug: 'gpt-6-sol', context_window: 272000 }], data: [{ id: 'gpt-6-luna', context_window: 128000 }] };
    expect([...contextWindowsFromModels(body)]).toEqual([
      ['gpt-6-sol', 272000],
      ['gpt-6-luna', 128000],
    ]);
  });

  it('prefers the slug to the id, and falls back to the id when the slug is empty', () => {
    const body = {
      models: [
        { slug: 'gpt-6-sol', id: 'other', context_window: 1000 },
        { slug: '', id: 'gpt-6-luna', context_window: 2000 },
      ],
    };
    expect([...contextWindowsFromModels(body)]).toEqual([
      ['gpt-6-sol', 1000],
      ['gpt-6-luna', 2000],
    ]);
  });

  it('keys windows by the normalised model name and keeps whole tokens', () => {
    const body = { models: [{ slug: 'OpenAI/GPT-6-Sol-2026-09-22', context_window: 272000.9 }] };
    expect([...contextWindowsFromModels(body)]).toEqual([['gpt-6-sol', 272000]]);
  });

  it('leaves out entries without a usable name or window', () => {
    const body = {
      models: [
        'gpt-6-sol',
        null,
        [{ slug: 'nested', context_window: 5 }],
        { context_window: 1000 },
        { slug: 42, context_window: 1000 },
        { slug: 'zero', context_window: 0 },
        { slug: 'negative', context_window: -1 },
        { slug: 'infinite', context_window: Infinity },
        { slug: 'nan', context_window: NaN },
        { slug: 'text', context_window: '272000' },
        { slug: 'tiny', context_window: 1 },
      ],
    };
    expect([...contextWindowsFromModels(body)]).toEqual([['tiny', 1]]);
  });

  it('reads nothing from a body that is not an object with lists', () => {
    expect(contextWindowsFromModels(null).size).toBe(0);
    expect(contextWindowsFromModels([{ slug: 'gpt-6-sol', context_window: 1000 }]).size).toBe(0);
    expect(contextWindowsFromModels({ models: { slug: 'gpt-6-sol', context_window: 1000 } }).size).toBe(0);
  });

  it('matches configured and served names whatever their case, prefix or snapshot date', () => {
    const lookup = contextWindowLookup({
      models: new Map([['gpt-6-luna', 128000]]),
      configured: { 'OpenAI/GPT-6-Sol': 400000 },
    });
    expect(lookup('gpt-6-sol-2026-09-22')).toBe(400000);
    expect(lookup('GPT-6-LUNA')).toBe(128000);
    expect(lookup('gpt-6-astra')).toBeNull();
  });

  it('is unknown for every model without any source', () => {
    expect(contextWindowLookup({})('gpt-6-sol')).toBeNull();
    expect(contextWindowLookup({ configured: { 'gpt-6-sol': 500000 } })('gpt-6-luna')).toBeNull();
  });
});
