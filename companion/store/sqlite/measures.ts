/**
 * @module What one exchange adds to a roll-up, as flat numbers. Roll-ups (by 15-minute bucket,
 * by session) are sums of these, kept by triggers, so a roll-up is always "the sum of the
 * exchanges stored now", whatever changed them (prune, delete, update, a recomputed analysis).
 * The numbers are the ones `analysis/usage-rollup.ts` adds for a summary, so a roll-up read back
 * from SQLite equals the roll-up of the same summaries computed in memory.
 */
import { addSummary, deriveRollup, emptyRollup } from '../../analysis/usage-rollup';
import type { UsageRollup } from '../../protocol/analysis';
import type { ExchangeSummary } from '../../protocol/exchange';

/** Column name → how to read it from a one-exchange roll-up and its summary. */
export const MEASURES = {
  rows: () => 1,
  exchanges: (r) => r.exchanges,
  exchanges_with_usage: (r) => r.exchangesWithUsage,
  codex_tokens_used: (r) => r.codexTokensUsed,
  all_traffic_tokens: (r) => r.allTrafficTokens ?? 0,
  input_tokens: (r) => r.inputTokens,
  cached_tokens: (r) => r.cachedTokens,
  cache_write_tokens: (r) => r.cacheWriteTokens,
  output_tokens: (r) => r.outputTokens,
  reasoning_tokens: (r) => r.reasoningTokens,
  total_tokens: (r) => r.totalTokens,
  u_subagent: (r) => r.uncounted.subagentTokens,
  u_prewarm: (r) => r.uncounted.prewarmTokens,
  u_remote_compaction: (r) => r.uncounted.remoteCompactionTokens,
  u_unfinished: (r) => r.uncounted.unfinishedTokens,
  u_other: (r) => r.uncounted.otherTokens,
  cost_usd: (r) => r.costUsd ?? 0,
  api_equivalent_usd: (r) => r.apiEquivalentUsd ?? 0,
  unpriced_tokens: (r) => r.unpricedTokens ?? 0,
  unpriced_exchanges: (r) => r.unpricedExchanges ?? 0,
  unknown_usage_exchanges: (r) => r.unknownUsageExchanges ?? 0,
  cache_misses: (_r, s) => (s.cache?.miss ? 1 : 0),
  miss_cost_usd: (_r, s) => (s.cache?.miss ? (s.cache.missCostUsd ?? 0) : 0),
} satisfies Record<string, (r: UsageRollup, s: ExchangeSummary) => number>;

export type Measure = keyof typeof MEASURES;
export const MEASURE_NAMES = Object.keys(MEASURES) as Measure[];
export type Measures = Record<Measure, number>;

/** The exchange's own contribution, one number per measure. */
export function measuresOf(s: ExchangeSummary): Measures {
  const r = emptyRollup();
  addSummary(r, s);
  const out = {} as Measures;
  for (const m of MEASURE_NAMES) out[m] = MEASURES[m](r, s);
  return out;
}

export function zeroMeasures(): Measures {
  const out = {} as Measures;
  for (const m of MEASURE_NAMES) out[m] = 0;
  return out;
}

/** Sums as the API shows them: a `UsageRollup` plus the cache misses and what they cost. */
export interface RollupTotals extends UsageRollup {
  cacheMisses: number;
  missCostUsd: number;
}

export function totalsOf(m: Measures): RollupTotals {
  const r: UsageRollup = {
    ...emptyRollup(),
    codexTokensUsed: m.codex_tokens_used,
    inputTokens: m.input_tokens,
    cachedTokens: m.cached_tokens,
    cacheWriteTokens: m.cache_write_tokens,
    outputTokens: m.output_tokens,
    reasoningTokens: m.reasoning_tokens,
    totalTokens: m.total_tokens,
    exchanges: m.exchanges,
    exchangesWithUsage: m.exchanges_with_usage,
    allTrafficTokens: m.all_traffic_tokens,
    uncounted: {
      subagentTokens: m.u_subagent,
      prewarmTokens: m.u_prewarm,
      remoteCompactionTokens: m.u_remote_compaction,
      unfinishedTokens: m.u_unfinished,
      otherTokens: m.u_other,
    },
    costUsd: m.cost_usd,
    apiEquivalentUsd: m.api_equivalent_usd,
    unpricedTokens: m.unpriced_tokens,
    unpricedExchanges: m.unpriced_exchanges,
    unknownUsageExchanges: m.unknown_usage_exchanges,
  };
  return { ...deriveRollup(r), cacheMisses: m.cache_misses, missCostUsd: m.miss_cost_usd };
}
