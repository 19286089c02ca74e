import { describe, expect, it } from 'vitest';
import { analyzeExchange } from '../../../companion/analysis/analyze';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import { costOf, findPrice, normalizeModel, normalizeTier } from '../../../companion/analysis/pricing';
import { mergePriceOverrides } from '../../../companion/analysis/price-overrides';
import { PriceTableSchema } from '../../../companion/protocol/analysis';
import type { Usage } from '../../../companion/protocol/usage';
import { loadFixture, recordFrom } from '../../support/records';

const usage = (input: number, cached: number, output: number, extra: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  cachedTokens: cached,
  cacheWriteTokens: null,
  outputTokens: output,
  reasoningTokens: null,
  totalTokens: input + output,
  ...extra,
});
const cost = (u: Usage | null, model: string | null, serviceTier: string | null = null, chatgptPlan = false) =>
  costOf(BUILTIN_PRICES, { usage: u, model, serviceTier, chatgptPlan });

describe('the built-in price table', () => {
  it('is valid data with a source URL and an as-of date on every row', () => {
    const table = PriceTableSchema.parse(BUILTIN_PRICES);
    for (const row of table.rows) {
      expect(row.source).toMatch(/^https:\/\/(developers\.)?openai\.com\//);
      expect(row.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('has one row per model and tier', () => {
    const keys = BUILTIN_PRICES.rows.map((r) => `${r.model}/${r.tier}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('starts from the gpt-5-codex standard and priority prices of the protocol notes', () => {
    expect(findPrice(BUILTIN_PRICES, 'gpt-5-codex', null)!.rates).toEqual({
      inputPer1M: 1.25,
      cachedInputPer1M: 0.125,
      cacheWritePer1M: null,
      outputPer1M: 10,
    });
    expect(findPrice(BUILTIN_PRICES, 'gpt-5-codex', 'priority')!.rates).toEqual({
      inputPer1M: 2.5,
      cachedInputPer1M: 0.25,
      cacheWritePer1M: null,
      outputPer1M: 20,
    });
  });
});

describe('costOf', () => {
  it('prices the worked example of a-plain-text-1 at $0.001762', () => {
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex')!.usd).toBeCloseTo(0.001762, 12);
  });

  it('bills reasoning inside output, never on top of it', () => {
    expect(cost(usage(5000, 4096, 12, { reasoningTokens: 10 }), 'gpt-5-codex')!.usd).toBeCloseTo(0.001762, 12);
  });

  it('bills cache writes at their published rate, and as input where none is published', () => {
    const sol = cost(usage(5000, 1000, 100, { cacheWriteTokens: 3000 }), 'gpt-6-sol')!;
    expect(sol.parts).toEqual({ uncachedInput: 1000, cachedInput: 1000, cacheWrite: 3000, output: 100 });
    expect(sol.usd).toBeCloseTo((1000 * 2 + 1000 * 0.2 + 3000 * 2.5 + 100 * 10) / 1e6, 12);
    const codex = cost(usage(5000, 1000, 100, { cacheWriteTokens: 3000 }), 'gpt-5-codex')!;
    expect(codex.usd).toBeCloseTo((4000 * 1.25 + 1000 * 0.125 + 100 * 10) / 1e6, 12);
  });

  it('uses the tier of the request’s service_tier, Codex’s "fast" being priority', () => {
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex', 'priority')!.usd).toBeCloseTo(2 * 0.001762, 12);
    expect(cost(usage(5000, 4096, 12), 'gpt-6-sol', 'fast')!.tier).toBe('priority');
    expect(cost(usage(5000, 4096, 12), 'gpt-6-sol', 'flex')!.usd).toBeCloseTo(cost(usage(5000, 4096, 12), 'gpt-6-sol')!.usd / 2, 12);
  });

  it('switches the whole request to long-context rates above 272K input tokens', () => {
    const short = cost(usage(272_000, 0, 1000), 'gpt-6-sol')!;
    const long = cost(usage(272_001, 0, 1000), 'gpt-6-sol')!;
    expect(short.longContext).toBe(false);
    expect(long).toMatchObject({ longContext: true, rates: { inputPer1M: 4, cachedInputPer1M: 0.4, cacheWritePer1M: 5, outputPer1M: 15 } });
  });

  it('is unknown (null), never 0, for an unpriced model or tier, or unknown usage', () => {
    expect(cost(usage(5000, 4096, 12), 'gpt-6.1-sol')).toBeNull();
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex', 'flex')).toBeNull();
    expect(cost(null, 'gpt-5-codex')).toBeNull();
    expect(cost(usage(5000, 4096, 12), null)).toBeNull();
  });

  it('labels ChatGPT-plan traffic an API-equivalent estimate', () => {
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex', null, true)!.basis).toBe('api_equivalent');
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex')!.basis).toBe('api');
  });

  it('gives the cost of a captured exchange, with its source', async () => {
    const a = analyzeExchange(await recordFrom(loadFixture('a-plain-text-1.json')), null);
    expect(a.costUsd).toBeCloseTo(0.001762, 12);
    expect(a.cost).toMatchObject({
      model: 'gpt-5-codex',
      tier: 'default',
      source: 'https://developers.openai.com/api/docs/models/gpt-5-codex',
    });
  });
});

describe('model and tier names', () => {
  it('normalises dated snapshots, provider prefixes and case', () => {
    expect(normalizeModel('gpt-5-codex-2025-09-15')).toBe('gpt-5-codex');
    expect(normalizeModel('OpenAI/GPT-6-Sol')).toBe('gpt-6-sol');
    expect(normalizeModel('gpt-6-luna-20260922')).toBe('gpt-6-luna');
    expect(cost(usage(5000, 4096, 12), 'gpt-5-codex-2025-09-15')!.usd).toBeCloseTo(0.001762, 12);
  });

  it('reads absent, auto and default tiers as the standard tier', () => {
    expect([normalizeTier(null), normalizeTier('auto'), normalizeTier('Default'), normalizeTier('fast'), normalizeTier('flex')]).toEqual([
      'default',
      'default',
      'default',
      'priority',
      'flex',
    ]);
  });
});

describe('mergePriceOverrides', () => {
  const row = {
    model: 'gpt-6.1-sol',
    tier: 'default',
    rates: { inputPer1M: 2, cachedInputPer1M: 0.1, cacheWritePer1M: 2.5, outputPer1M: 10 },
    source: 'my invoice',
    asOf: '2026-11-29',
  };

  it('adds a row for an unpriced model', () => {
    const { table, errors } = mergePriceOverrides(BUILTIN_PRICES, { rows: [row] });
    expect(errors).toEqual([]);
    expect(costOf(table, { usage: usage(5000, 4096, 12), model: 'gpt-6.1-sol', serviceTier: null, chatgptPlan: false })!.source).toBe(
      'my invoice',
    );
  });

  it('replaces the built-in row of the same model and tier', () => {
    const { table } = mergePriceOverrides(BUILTIN_PRICES, { rows: [{ ...row, model: 'gpt-5-codex' }] });
    expect(table.rows.filter((r) => r.model === 'gpt-5-codex' && r.tier === 'default')).toHaveLength(1);
    expect(findPrice(table, 'gpt-5-codex', null)!.rates.inputPer1M).toBe(2);
    expect(findPrice(table, 'gpt-5-codex', 'priority')!.rates.inputPer1M).toBe(2.5);
  });

  it('makes listed models unpriced', () => {
    const { table } = mergePriceOverrides(BUILTIN_PRICES, { unpriced: ['gpt-5-codex'] });
    expect(findPrice(table, 'gpt-5-codex', null)).toBeNull();
    expect(findPrice(table, 'gpt-6-sol', null)).not.toBeNull();
  });

  it('rejects an invalid override whole, says why, and keeps the table', () => {
    const { table, errors } = mergePriceOverrides(BUILTIN_PRICES, { rows: [{ ...row, rates: { inputPer1M: -1 } }] });
    expect(table).toBe(BUILTIN_PRICES);
    expect(errors.join('\n')).toMatch(/rates/);
    expect(mergePriceOverrides(BUILTIN_PRICES, 'not an object').errors).toHaveLength(1);
  });
});
