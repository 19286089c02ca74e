import { describe, expect, it } from 'vitest';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import { findPrice } from '../../../companion/analysis/pricing';
import type { Rates } from '../../../companion/protocol/analysis';

const rates = (inputPer1M: number, cachedInputPer1M: number, cacheWritePer1M: number | null, outputPer1M: number): Rates => ({
  inputPer1M,
  cachedInputPer1M,
  cacheWritePer1M,
  outputPer1M,
});
const row = (model: string, tier: string | null = null) => findPrice(BUILTIN_PRICES, model, tier)!;

describe('the built-in price table', () => {
  it('prices each model at the tiers its page publishes, and no others', () => {
    const tiers = new Map<string, string[]>();
    for (const r of BUILTIN_PRICES.rows) tiers.set(r.model, [...(tiers.get(r.model) ?? []), r.tier]);
    expect(Object.fromEntries(tiers)).toEqual({
      'gpt-5-codex': ['default', 'priority'],
      'gpt-6-sol': ['default', 'flex', 'priority'],
      'gpt-6-luna': ['default', 'flex', 'priority'],
      'gpt-6.2-sol': ['default', 'priority'],
      'gpt-5.6-terra': ['default'],
      'gpt-5.6-luna': ['default'],
    });
    expect(BUILTIN_PRICES.rows.every((r) => r.aliases.length === 0 && r.asOf === '2026-11-29')).toBe(true);
  });

  it('prices Flex at half and Fast (priority) at twice the standard rates', () => {
    expect(row('gpt-6-sol', 'flex').rates).toEqual(rates(1, 0.1, 1.25, 5));
    expect(row('gpt-6-sol', 'priority').rates).toEqual(rates(4, 0.4, 5, 20));
    expect(row('gpt-6-luna', 'flex').rates).toEqual(rates(0.05, 0.005, 0.0625, 0.25));
    expect(row('gpt-6-luna', 'fast').rates).toEqual(rates(0.2, 0.02, 0.25, 1));
    expect(row('gpt-6.2-sol', 'priority').rates).toEqual(rates(4, 0.2, 5, 20));
  });

  it('switches GPT-6-style rows to 2× input-side and 1.5× output rates above 272K input tokens, rounded as published', () => {
    expect(row('gpt-6-sol').longContext).toEqual({ aboveInputTokens: 272_000, rates: rates(4, 0.4, 5, 15) });
    expect(row('gpt-6-sol', 'priority').longContext).toEqual({ aboveInputTokens: 272_000, rates: rates(8, 0.8, 10, 30) });
    expect(row('gpt-6-luna', 'flex').longContext!.rates).toEqual(rates(0.1, 0.01, 0.125, 0.375));
    // 1.2 × 1.5 is 1.7999999999999998 in floating point: the table reads 1.8, as the page does.
    expect(row('gpt-5.6-luna').longContext!.rates).toEqual(rates(0.4, 0.04, 0.5, 1.8));
    expect(row('gpt-5.6-terra').longContext!.rates).toEqual(rates(4, 0.4, 5, 18));
  });

  it('bills gpt-5-codex cache writes as input and gives it no long-context rates', () => {
    expect(row('gpt-5-codex').longContext).toBeNull();
    expect(row('gpt-5-codex', 'priority').longContext).toBeNull();
    expect(row('gpt-5-codex').note).toBe('No cache-write price published: cache writes are billed as input.');
    expect(row('gpt-5-codex', 'priority').note).toBe(
      'Priority processing, as quoted in codex-protocol.md §8; the page says it excludes long context.',
    );
  });

  it('says in each derived row’s note how it was derived', () => {
    expect(row('gpt-6-sol').note).toBeNull();
    expect(row('gpt-6-sol', 'flex').note).toBe('Flex at 50 % of Standard, as the page states.');
    expect(row('gpt-6-luna', 'priority').note).toBe('Fast (priority) at 2× of Standard, as the page states.');
    expect(row('gpt-5.6-terra').note).toBe(
      'Cache writes at 1.25× input and long context at 2× input / 1.5× output, as the page states; cached input is doubled with input above 272K (assumed). No Flex or Fast rates published there.',
    );
    expect(row('gpt-5.6-luna').note).toBe(row('gpt-5.6-terra').note);
  });
});
