import { describe, expect, it } from 'vitest';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import { mergePriceOverrides } from '../../../companion/analysis/price-overrides';
import {
  costOf,
  findPrice,
  missCost,
  normalizeModel,
  normalizeTier,
  priceExchange,
  priceRowExample,
  type PricingInput,
} from '../../../companion/analysis/pricing';
import { PriceOverridesSchema, type PriceRow, type PriceTable } from '../../../companion/protocol/analysis';
import type { Usage } from '../../../companion/protocol/usage';

const usage = (input: number | null, cached: number | null, output: number | null, extra: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  cachedTokens: cached,
  cacheWriteTokens: null,
  outputTokens: output,
  reasoningTokens: null,
  totalTokens: null,
  ...extra,
});

/** A table of round rates, so every cost below is exact. */
const row = (more: Partial<PriceRow> = {}): PriceRow => ({
  model: 'test-model',
  aliases: [],
  tier: 'default',
  rates: { inputPer1M: 4, cachedInputPer1M: 1, cacheWritePer1M: 8, outputPer1M: 16 },
  longContext: null,
  source: 'test page',
  asOf: '2026-11-29',
  note: null,
  ...more,
});
const table = (...rows: PriceRow[]): PriceTable => ({ rows });

const input = (more: Partial<PricingInput> = {}): PricingInput => ({
  usage: usage(1_000_000, 250_000, 500_000),
  model: 'test-model',
  requestedModel: null,
  serviceTier: null,
  chatgptPlan: false,
  ...more,
});

describe('model names', () => {
  it('trims and lower-cases', () => {
    expect(normalizeModel('  GPT-6-Sol \n')).toBe('gpt-6-sol');
  });

  it('drops the openai/ prefix only at the start', () => {
    expect(normalizeModel('openai/gpt-6-sol')).toBe('gpt-6-sol');
    expect(normalizeModel('azure/openai/gpt-6-sol')).toBe('azure/openai/gpt-6-sol');
    expect(normalizeModel('openai-gpt-6-sol')).toBe('openai-gpt-6-sol');
  });

  it('drops only a whole dated suffix at the end', () => {
    expect(normalizeModel('gpt-6-sol-2026-09-22')).toBe('gpt-6-sol');
    expect(normalizeModel('gpt-6-sol-20260922')).toBe('gpt-6-sol');
    expect(normalizeModel('gpt-6-sol-2026-09-22-preview')).toBe('gpt-6-sol-2026-09-22-preview');
    expect(normalizeModel('gpt-6-sol-2026092')).toBe('gpt-6-sol-2026092');
    expect(normalizeModel('gpt-6-sol-202609221')).toBe('gpt-6-sol-202609221');
    expect(normalizeModel('gpt-6-sol-2026-9-22')).toBe('gpt-6-sol-2026-9-22');
    expect(normalizeModel('gpt-6-sol-abcd-ef-gh')).toBe('gpt-6-sol-abcd-ef-gh');
    expect(normalizeModel('gpt-6-sol2026-09-22')).toBe('gpt-6-sol2026-09-22');
  });
});

describe('service tiers', () => {
  it('reads empty, auto, default and standard, in any case and spacing, as the standard tier', () => {
    expect(['', '  ', undefined, 'AUTO', ' standard ', 'Standard', 'DEFAULT'].map(normalizeTier)).toEqual(Array(7).fill('default'));
  });

  it('reads fast as priority and keeps other tiers, lower-cased', () => {
    expect([' Fast ', 'FAST', 'Priority', ' flex', 'scale'].map(normalizeTier)).toEqual([
      'priority',
      'priority',
      'priority',
      'flex',
      'scale',
    ]);
  });
});

describe('finding a price row', () => {
  const t = table(
    row({ model: 'OpenAI/Test-Model', aliases: ['tm-legacy'] }),
    row({ model: 'test-model', tier: 'priority', rates: { inputPer1M: 8, cachedInputPer1M: 2, cacheWritePer1M: null, outputPer1M: 32 } }),
  );

  it('matches the model by its normalised name or an alias, at the normalised tier', () => {
    expect(findPrice(t, 'test-model-2026-01-01', 'auto')).toBe(t.rows[0]);
    expect(findPrice(t, 'TM-Legacy', null)).toBe(t.rows[0]);
    expect(findPrice(t, 'test-model', 'fast')).toBe(t.rows[1]);
  });

  it('finds nothing for an unknown model, an unknown tier, or no model', () => {
    expect(findPrice(t, 'other-model', null)).toBeNull();
    expect(findPrice(t, 'test-model', 'flex')).toBeNull();
    expect(findPrice(t, 'tm-legacy', 'priority')).toBeNull();
    expect(findPrice(t, null, null)).toBeNull();
    expect(findPrice(t, '', null)).toBeNull();
  });
});

describe('the cost of one response', () => {
  it('bills each part at its rate and says how the figure was reached', () => {
    const c = costOf(table(row({ model: 'Test-Model' })), {
      ...input({ usage: usage(1_000_000, 250_000, 500_000, { cacheWriteTokens: 125_000 }) }),
    });
    expect(c).toEqual({
      usd: 0.625 * 4 + 0.25 * 1 + 0.125 * 8 + 0.5 * 16,
      model: 'test-model',
      tier: 'default',
      longContext: false,
      rates: { inputPer1M: 4, cachedInputPer1M: 1, cacheWritePer1M: 8, outputPer1M: 16 },
      parts: { uncachedInput: 625_000, cachedInput: 250_000, cacheWrite: 125_000, output: 500_000 },
      partsUsd: { uncachedInput: 2.5, cachedInput: 0.25, cacheWrite: 1, output: 8 },
      basis: 'api',
      source: 'test page',
      asOf: '2026-11-29',
    });
  });

  it('never bills more cached or cache-write tokens than the input holds', () => {
    const over = costOf(table(row()), input({ usage: usage(1000, 5000, 0, { cacheWriteTokens: 100 }) }))!;
    expect(over.parts).toEqual({ uncachedInput: 0, cachedInput: 1000, cacheWrite: 0, output: 0 });
    const writes = costOf(table(row()), input({ usage: usage(1000, 600, 0, { cacheWriteTokens: 900 }) }))!;
    expect(writes.parts).toEqual({ uncachedInput: 0, cachedInput: 600, cacheWrite: 400, output: 0 });
  });

  it('counts missing cache figures as none', () => {
    const c = costOf(table(row()), input({ usage: usage(1_000_000, null, 0) }))!;
    expect(c.parts).toEqual({ uncachedInput: 1_000_000, cachedInput: 0, cacheWrite: 0, output: 0 });
    expect(c.usd).toBe(4);
  });

  it('bills cache writes as input where no cache-write rate is published', () => {
    const noWriteRate = row({ rates: { inputPer1M: 4, cachedInputPer1M: 1, cacheWritePer1M: null, outputPer1M: 16 } });
    const c = costOf(table(noWriteRate), input({ usage: usage(1_000_000, 0, 0, { cacheWriteTokens: 500_000 }) }))!;
    expect(c.partsUsd).toEqual({ uncachedInput: 2, cachedInput: 0, cacheWrite: 2, output: 0 });
  });

  it('uses long-context rates only above the threshold', () => {
    const longRates = { inputPer1M: 40, cachedInputPer1M: 10, cacheWritePer1M: 80, outputPer1M: 160 };
    const t = table(row({ longContext: { aboveInputTokens: 1000, rates: longRates } }));
    const at = costOf(t, input({ usage: usage(1000, 0, 0) }))!;
    expect(at).toMatchObject({ longContext: false, rates: { inputPer1M: 4 } });
    const above = costOf(t, input({ usage: usage(1001, 0, 0) }))!;
    expect(above).toMatchObject({ longContext: true, rates: longRates });
    expect(above.usd).toBeCloseTo((1001 * 40) / 1e6, 15);
  });

  it('calls ChatGPT-plan traffic an API-equivalent estimate', () => {
    expect(costOf(table(row()), input({ chatgptPlan: true }))!.basis).toBe('api_equivalent');
  });

  it('is unknown when input or output is unknown', () => {
    expect(costOf(table(row()), input({ usage: usage(null, 0, 10) }))).toBeNull();
    expect(costOf(table(row()), input({ usage: usage(10, 0, null) }))).toBeNull();
    expect(costOf(table(row()), input({ usage: null }))).toBeNull();
  });
});

describe('what a cache miss cost', () => {
  const cost = () => costOf(table(row()), input())!;

  it('prices missed tokens at the full rate above the cached rate', () => {
    expect(missCost(cost(), 1_000_000)).toBe(3);
    expect(missCost(cost(), 0)).toBe(0);
  });

  it('never costs less than nothing, and is unknown without a cost', () => {
    const c = cost();
    const odd = { ...c, rates: { ...c.rates, inputPer1M: 1, cachedInputPer1M: 2 } };
    expect(missCost(odd, 1_000_000)).toBe(0);
    expect(missCost(null, 1000)).toBeNull();
  });
});

describe('the price of one exchange', () => {
  const t = table(row());

  it('prices the served model and names it', () => {
    expect(priceExchange(t, input())).toEqual({
      cost: costOf(t, input()),
      usd: 3 + 0.25 + 8,
      pricing: {
        status: 'priced',
        model: 'test-model',
        requestedModel: null,
        note: 'priced as test-model, the model that served the request; tier default',
        noteCode: { code: 'pricing.priced', params: { model: 'test-model', tier: 'default' } },
        example: null,
      },
    });
  });

  it('names the requested model only when it differs from the served one', () => {
    const asked = priceExchange(t, input({ requestedModel: 'other-model' })).pricing;
    expect(asked.note).toBe('priced as test-model, the model that served the request (Codex requested other-model); tier default');
    expect(asked.noteCode).toEqual({
      code: 'pricing.pricedRequested',
      params: { model: 'test-model', tier: 'default', requested: 'other-model' },
    });
    expect(priceExchange(t, input({ requestedModel: 'test-model' })).pricing.noteCode!.code).toBe('pricing.priced');
  });

  it('is unknown without usage, whatever the model', () => {
    for (const u of [null, usage(null, 0, 10), usage(10, 0, null)])
      expect(priceExchange(t, input({ usage: u }))).toEqual({
        cost: null,
        usd: null,
        pricing: {
          status: 'no_usage',
          model: 'test-model',
          requestedModel: null,
          note: 'cost unknown: the upstream reported no usage for this exchange',
          noteCode: { code: 'pricing.noUsage', params: {} },
          example: null,
        },
      });
  });

  it('costs 0 input and 0 output tokens $0 even unpriced or without a model', () => {
    for (const model of ['other-model', null]) {
      const zero = priceExchange(t, input({ model, usage: usage(0, 0, 0) }));
      expect(zero).toMatchObject({
        cost: null,
        usd: 0,
        pricing: { status: 'zero_tokens', note: '0 input and 0 output tokens: $0 at any price' },
      });
    }
    expect(priceExchange(t, input({ model: 'other-model', usage: usage(0, 0, 1) })).usd).toBeNull();
    expect(priceExchange(t, input({ model: 'other-model', usage: usage(1, 0, 0) })).usd).toBeNull();
  });

  it('is unknown when no model was named', () => {
    expect(priceExchange(t, input({ model: null, requestedModel: 'test-model' }))).toEqual({
      cost: null,
      usd: null,
      pricing: {
        status: 'no_model',
        model: null,
        requestedModel: 'test-model',
        note: 'cost unknown: neither the request nor the response named a model',
        noteCode: { code: 'pricing.noModel', params: {} },
        example: null,
      },
    });
  });

  it('names an unpriced model with its tier, the requested model, and a row to fill in', () => {
    const p = priceExchange(t, input({ model: 'other-model', requestedModel: 'asked-model', serviceTier: 'Fast' }));
    expect(p).toMatchObject({ cost: null, usd: null });
    expect(p.pricing).toMatchObject({
      status: 'unpriced',
      model: 'other-model',
      requestedModel: 'asked-model',
      noteCode: { code: 'pricing.unpricedRequested', params: { model: 'other-model', tier: 'priority', requested: 'asked-model' } },
      example: priceRowExample('other-model', 'priority'),
    });
    expect(p.pricing.note).toMatch(/^cost unknown: no price is known for other-model \(Codex requested asked-model\) at tier priority; /);
    const plain = priceExchange(t, input({ model: 'other-model' })).pricing;
    expect(plain.noteCode).toEqual({ code: 'pricing.unpriced', params: { model: 'other-model', tier: 'default' } });
  });
});

describe('the price row a user can fill in', () => {
  it('is an override file of one zero-rated row for that model and tier', () => {
    const text = priceRowExample('other-model', 'flex');
    expect(JSON.parse(text)).toEqual({
      rows: [
        {
          model: 'other-model',
          tier: 'flex',
          rates: { inputPer1M: 0, cachedInputPer1M: 0, cacheWritePer1M: null, outputPer1M: 0 },
          source: 'where the price was read',
          asOf: 'YYYY-MM-DD',
        },
      ],
    });
    expect(text.split('\n')[1]).toBe('  "rows": [');
  });
});

describe('price overrides', () => {
  const builtin = table(row(), row({ tier: 'priority' }), row({ model: 'kept-model' }));

  it('replaces rows of the same normalised model and tier, puts added rows first, and keeps the rest', () => {
    const override = { ...row({ model: 'Test-Model', tier: 'Standard' }), source: 'my invoice' };
    const { table: merged, errors } = mergePriceOverrides(builtin, { rows: [override] });
    expect(errors).toEqual([]);
    expect(merged.rows.map((r) => [r.model, r.tier, r.source])).toEqual([
      ['Test-Model', 'default', 'my invoice'],
      ['test-model', 'priority', 'test page'],
      ['kept-model', 'default', 'test page'],
    ]);
  });

  it('drops every row of an unpriced model, its own added rows included, whatever the name’s case', () => {
    const { table: merged } = mergePriceOverrides(builtin, {
      rows: [row({ model: 'test-model', tier: 'flex' })],
      unpriced: ['TEST-MODEL'],
    });
    expect(merged.rows.map((r) => [r.model, r.tier])).toEqual([['kept-model', 'default']]);
  });

  it('keeps the table as it was for an empty override', () => {
    expect(mergePriceOverrides(builtin, {})).toEqual({ table: { rows: builtin.rows }, errors: [] });
  });

  it('rejects an override whole with a readable error', () => {
    const bad = { rows: [row(), { model: 'x' }] };
    expect(PriceOverridesSchema.safeParse(bad).success).toBe(false);
    const { table: merged, errors } = mergePriceOverrides(builtin, bad);
    expect(merged).toBe(builtin);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('rows[1]');
  });

  it('applies to the built-in table', () => {
    const { table: merged } = mergePriceOverrides(BUILTIN_PRICES, { unpriced: ['gpt-6-sol'] });
    expect(merged.rows).toHaveLength(BUILTIN_PRICES.rows.length - 3);
  });
});
