import { describe, expect, it } from 'vitest';
import { analyzeExchange } from '../../../companion/analysis/analyze';
import { contextWindowLookup, contextWindowsFromModels } from '../../../companion/analysis/models-metadata';
import { loadFixture, recordFrom } from '../../support/records';

/** The shape of Codex's `/models` answer and bundled catalog (two entries, trimmed). */
const MODELS = {
  models: [
    { slug: 'gpt-6.1-sol', display_name: 'GPT-6.1-Sol', context_window: 272000, max_context_window: 872000 },
    { slug: 'gpt-6-astra', context_window: 272000 },
    { slug: 'no-window' },
  ],
};

describe('context windows', () => {
  it('reads each model’s context window from a /models answer', () => {
    expect([...contextWindowsFromModels(MODELS)]).toEqual([
      ['gpt-6.1-sol', 272000],
      ['gpt-6-astra', 272000],
    ]);
    expect(contextWindowsFromModels('not json').size).toBe(0);
  });

  it('prefers a configured window, then /models, and is unknown otherwise', () => {
    const lookup = contextWindowLookup({ models: contextWindowsFromModels(MODELS), configured: { 'gpt-6-astra': 500000 } });
    expect([lookup('gpt-6.1-sol'), lookup('gpt-6-astra'), lookup('gpt-5-codex')]).toEqual([272000, 500000, null]);
  });

  it('gives an exchange its share of the window, or none when the window is unknown', async () => {
    const record = await recordFrom(loadFixture('codemode-text-1.json'));
    const known = analyzeExchange(record, null, { contextWindow: contextWindowLookup({ models: contextWindowsFromModels(MODELS) }) });
    expect(known.context!.contextWindow).toBe(272000);
    expect(known.context!.windowShare).toBeCloseTo(record.usage!.inputTokens! / 272000, 12);
    expect(analyzeExchange(record, null).context!.windowShare).toBeNull();
  });
});
