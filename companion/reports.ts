/**
 * @module Glue between the store and the analysis roll-ups for `/api/usage`, `/api/sessions`
 * and the live feed's usage counters: selects the summaries, the analysis stage does the sums.
 */
import type { Reports, UsageQuery } from './context';
import type { ExchangeSummary } from './protocol/exchange';
import type { UsageTotals } from './protocol/usage';
import type { Store } from './store/store';

function select(store: Store, q: UsageQuery): ExchangeSummary[] {
  const out: ExchangeSummary[] = [];
  for (const s of store.summaries()) {
    if (q.session && s.sessionId !== q.session) continue;
    if (q.since !== undefined && s.startedAt < q.since) continue;
    if (q.until !== undefined && s.startedAt >= q.until) continue;
    out.push(s);
  }
  return out;
}

/** Provisional sums until the analysis roll-ups are wired in. */
function totals(items: ExchangeSummary[]): UsageTotals {
  const t: UsageTotals = {
    codexTokensUsed: 0,
    inputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    exchanges: 0,
    exchangesWithUsage: 0,
  };
  for (const s of items) {
    if (s.kind !== 'model') continue;
    t.exchanges++;
    const u = s.usage;
    if (!u) continue;
    t.exchangesWithUsage++;
    t.inputTokens += u.inputTokens ?? 0;
    t.cachedTokens += u.cachedTokens ?? 0;
    t.cacheWriteTokens += u.cacheWriteTokens ?? 0;
    t.outputTokens += u.outputTokens ?? 0;
    t.reasoningTokens += u.reasoningTokens ?? 0;
    t.totalTokens += u.totalTokens ?? 0;
    if (s.codexCounted) t.codexTokensUsed += Math.max(0, (u.inputTokens ?? 0) - (u.cachedTokens ?? 0)) + (u.outputTokens ?? 0);
  }
  return t;
}

export function createReports(store: Store): Reports & { live(): UsageTotals } {
  return {
    usage: (q) => totals(select(store, q)),
    sessions: () => ({ sessions: [] }),
    live: () => totals([...store.summaries()]),
  };
}
