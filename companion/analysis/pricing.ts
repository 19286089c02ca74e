/**
 * @module Cost of one response from its usage, model and service tier (codex-protocol.md §8):
 * (input − cached − cache write)·p_in + cached·p_cached + cache write·p_write + output·p_out,
 * reasoning inside output. Unpriced ⇒ null, never 0.
 */
import type { CostBreakdown, PriceRow, PriceTable, Pricing, Rates } from '../protocol/analysis';
import type { Usage } from '../protocol/usage';
import { phrase, type Phrase } from './texts';

/**
 * `OpenAI/GPT-5-Codex-2025-09-15` → `gpt-5-codex`: lower case, no provider prefix, no dated
 * snapshot suffix (`-YYYY-MM-DD` or `-YYYYMMDD`).
 */
export function normalizeModel(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^openai\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
}

/** Request `service_tier` → price tier: absent/`auto`/`default` → `default`; `fast` is Codex's name for `priority`. */
export function normalizeTier(tier: string | null | undefined): string {
  const t = (tier ?? '').trim().toLowerCase();
  if (t === '' || t === 'auto' || t === 'default' || t === 'standard') return 'default';
  if (t === 'fast') return 'priority';
  return t;
}

/** The row pricing `model` at `tier`, or null (unpriced). */
export function findPrice(table: PriceTable, model: string | null, tier: string | null | undefined): PriceRow | null {
  if (!model) return null;
  const m = normalizeModel(model);
  const t = normalizeTier(tier);
  return table.rows.find((r) => r.tier === t && (normalizeModel(r.model) === m || r.aliases.some((a) => normalizeModel(a) === m))) ?? null;
}

export interface CostInput {
  usage: Usage | null;
  model: string | null;
  /** The request's `service_tier`. */
  serviceTier: string | null;
  /** ChatGPT-plan traffic is not billed per token: its cost is an API-equivalent estimate. */
  chatgptPlan: boolean;
}

/** Cost of one response, with how it was reached; null when usage is unknown or the model unpriced. */
export function costOf(table: PriceTable, input: CostInput): CostBreakdown | null {
  const u = input.usage;
  if (!u || u.inputTokens === null || u.outputTokens === null) return null;
  const row = findPrice(table, input.model, input.serviceTier);
  if (!row) return null;
  const long = row.longContext !== null && u.inputTokens > row.longContext.aboveInputTokens;
  const r: Rates = long && row.longContext ? row.longContext.rates : row.rates;
  const cached = Math.min(u.cachedTokens ?? 0, u.inputTokens);
  const cacheWrite = Math.min(u.cacheWriteTokens ?? 0, u.inputTokens - cached);
  const parts = { uncachedInput: u.inputTokens - cached - cacheWrite, cachedInput: cached, cacheWrite, output: u.outputTokens };
  const partsUsd = {
    uncachedInput: (parts.uncachedInput * r.inputPer1M) / 1e6,
    cachedInput: (parts.cachedInput * r.cachedInputPer1M) / 1e6,
    cacheWrite: (parts.cacheWrite * (r.cacheWritePer1M ?? r.inputPer1M)) / 1e6,
    output: (parts.output * r.outputPer1M) / 1e6,
  };
  const usd = partsUsd.uncachedInput + partsUsd.cachedInput + partsUsd.cacheWrite + partsUsd.output;
  return {
    usd,
    model: normalizeModel(row.model),
    tier: row.tier,
    longContext: long,
    rates: r,
    parts,
    partsUsd,
    basis: input.chatgptPlan ? 'api_equivalent' : 'api',
    source: row.source,
    asOf: row.asOf,
  };
}

/** A prices.json the user can fill in for `model` (PriceOverridesSchema). */
export function priceRowExample(model: string, tier: string): string {
  const row = {
    model,
    tier,
    rates: { inputPer1M: 0, cachedInputPer1M: 0, cacheWritePer1M: null, outputPer1M: 0 },
    source: 'where the price was read',
    asOf: 'YYYY-MM-DD',
  };
  return JSON.stringify({ rows: [row] }, null, 2);
}

export interface PricingInput extends CostInput {
  requestedModel: string | null;
}

/**
 * The price of one exchange, with which model it was priced as and why: the served model is
 * priced; 0 input and 0 output tokens cost $0 at any price, so they are never "unpriced".
 */
export function priceExchange(
  table: PriceTable,
  input: PricingInput,
): { cost: CostBreakdown | null; usd: number | null; pricing: Pricing } {
  const { model, requestedModel } = input;
  const u = input.usage;
  const asked = requestedModel && model && requestedModel !== model ? requestedModel : null;
  const pricing = (status: Pricing['status'], note: Phrase, example: string | null = null): Pricing => ({
    status,
    model,
    requestedModel,
    note: note.text,
    noteCode: note.code,
    example,
  });
  if (!u || u.inputTokens === null || u.outputTokens === null)
    return { cost: null, usd: null, pricing: pricing('no_usage', phrase('pricing.noUsage')) };
  const cost = costOf(table, input);
  if (cost) {
    const priced = { model: cost.model, tier: cost.tier };
    return {
      cost,
      usd: cost.usd,
      pricing: pricing(
        'priced',
        asked ? phrase('pricing.pricedRequested', { ...priced, requested: asked }) : phrase('pricing.priced', priced),
      ),
    };
  }
  if (u.inputTokens === 0 && u.outputTokens === 0)
    return { cost: null, usd: 0, pricing: pricing('zero_tokens', phrase('pricing.zeroTokens')) };
  if (!model) return { cost: null, usd: null, pricing: pricing('no_model', phrase('pricing.noModel')) };
  const tier = normalizeTier(input.serviceTier);
  return {
    cost: null,
    usd: null,
    pricing: pricing(
      'unpriced',
      asked ? phrase('pricing.unpricedRequested', { model, tier, requested: asked }) : phrase('pricing.unpriced', { model, tier }),
      priceRowExample(model, tier),
    ),
  };
}

/** Price of `tokens` input tokens at the full rate above the cached rate: what a cache miss cost. */
export function missCost(cost: CostBreakdown | null, tokens: number): number | null {
  if (!cost) return null;
  return (tokens * Math.max(0, cost.rates.inputPer1M - cost.rates.cachedInputPer1M)) / 1e6;
}
