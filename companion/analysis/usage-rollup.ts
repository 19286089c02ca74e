/**
 * @module Token and cost totals over exchange summaries, "as Codex counts" beside "all traffic".
 *
 * Both use Codex's own formula, Σ(max(0, input − cached) + output): over the exchanges Codex
 * counts (`codexCounted`, architecture.md) it reproduces the `tokens used` Codex prints; over
 * every model exchange with usage it is "all traffic". Using one formula for both makes their
 * difference exactly the uncounted exchanges (sub-agents, prewarm, remote compaction, unfinished
 * responses), which `uncounted` itemises; `totalTokens` would also count cached input, which
 * Codex never does, and the difference would mean nothing.
 */
import type { TurnUsage, UncountedBreakdown, UsageReport, UsageRollup } from '../protocol/analysis';
import type { ExchangeSummary } from '../protocol/exchange';
import { normalizeModel } from './pricing';
import { blendedTokens } from './token-math';

export function emptyRollup(): UsageRollup {
  return {
    codexTokensUsed: 0,
    inputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    exchanges: 0,
    exchangesWithUsage: 0,
    allTrafficTokens: 0,
    uncounted: { subagentTokens: 0, prewarmTokens: 0, remoteCompactionTokens: 0, unfinishedTokens: 0, otherTokens: 0 },
    costUsd: 0,
    apiEquivalentUsd: 0,
    unpricedTokens: 0,
    unpricedExchanges: 0,
    unknownUsageExchanges: 0,
  };
}

/** Why an exchange Codex does not count is left out: the first bucket that applies. */
function uncountedBucket(s: ExchangeSummary): keyof UncountedBreakdown {
  if (s.agent.role === 'subagent') return 'subagentTokens';
  if (s.requestKind === 'prewarm') return 'prewarmTokens';
  if (s.status !== 'completed' && s.status !== 'incomplete') return 'unfinishedTokens';
  // A finished root compaction Codex did not count is a remote one (local compaction is counted).
  if (s.requestKind === 'compaction') return 'remoteCompactionTokens';
  return 'otherTokens';
}

/** Adds one summary to `r` (in place). Non-model exchanges are outside the token totals. */
export function addSummary(r: UsageRollup, s: ExchangeSummary): void {
  if (s.kind !== 'model') return;
  r.exchanges++;
  const u = s.usage;
  const blended = blendedTokens(u);
  if (!u || blended === null || u.inputTokens === null || u.outputTokens === null) {
    r.unknownUsageExchanges++;
    return;
  }
  r.exchangesWithUsage++;
  r.inputTokens += u.inputTokens;
  r.cachedTokens += u.cachedTokens ?? 0;
  r.cacheWriteTokens += u.cacheWriteTokens ?? 0;
  r.outputTokens += u.outputTokens;
  r.reasoningTokens += u.reasoningTokens ?? 0;
  r.totalTokens += u.totalTokens ?? u.inputTokens + u.outputTokens;
  r.allTrafficTokens += blended;
  if (s.codexCounted) r.codexTokensUsed += blended;
  else r.uncounted[uncountedBucket(s)] += blended;
  // 0 input and 0 output tokens cost $0 at any price (a prewarm): never "unpriced".
  const zeroTokens = u.inputTokens === 0 && u.outputTokens === 0;
  if (zeroTokens) return;
  if (s.costUsd !== null) {
    r.costUsd += s.costUsd;
    if (s.route.auth === 'chatgpt') r.apiEquivalentUsd += s.costUsd;
  } else {
    // Every billed token: input (cached included) and output (reasoning included).
    r.unpricedTokens += u.inputTokens + u.outputTokens;
    r.unpricedExchanges++;
  }
}

/** Sums rollups field by field (for rolling threads up to their parent). */
export function sumRollups(list: readonly UsageRollup[]): UsageRollup {
  const out = emptyRollup();
  for (const r of list) {
    for (const k of Object.keys(out) as (keyof UsageRollup)[]) {
      if (k === 'uncounted') continue;
      (out[k] as number) += r[k] as number;
    }
    for (const k of Object.keys(out.uncounted) as (keyof UncountedBreakdown)[]) out.uncounted[k] += r.uncounted[k];
  }
  return out;
}

/**
 * Totals of a set of summaries. `costUsd` of each summary is the analysis's cost (null when
 * unpriced or not analysed): the total is the priced subtotal, the rest is `unpricedTokens`.
 */
export function rollupUsage(summaries: readonly ExchangeSummary[]): UsageRollup {
  const r = emptyRollup();
  for (const s of summaries) addSummary(r, s);
  return r;
}

function groupBy<K>(summaries: readonly ExchangeSummary[], key: (s: ExchangeSummary) => K): Map<K, UsageRollup> {
  const out = new Map<K, UsageRollup>();
  for (const s of summaries) {
    if (s.kind !== 'model') continue;
    const k = key(s);
    let r = out.get(k);
    if (!r) out.set(k, (r = emptyRollup()));
    addSummary(r, s);
  }
  return out;
}

/** `GET /api/usage`: totals, and by session, by day (in `timeZone`, default UTC) and by model. */
export function usageReport(summaries: readonly ExchangeSummary[], opts: { timeZone?: string } = {}): UsageReport {
  const timeZone = opts.timeZone ?? 'UTC';
  // en-CA formats dates as YYYY-MM-DD.
  const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return {
    total: rollupUsage(summaries),
    bySession: [...groupBy(summaries, (s) => s.sessionId)].map(([sessionId, r]) => ({ sessionId, ...r })),
    byDay: [...groupBy(summaries, (s) => dayFormat.format(new Date(s.startedAt)))]
      .map(([day, r]) => ({ day, ...r }))
      .sort((a, b) => a.day.localeCompare(b.day)),
    byModel: [...groupBy(summaries, (s) => (s.model ? normalizeModel(s.model) : null))].map(([model, r]) => ({ model, ...r })),
    timeZone,
  };
}

/** Totals per thread (session and thread id). */
export function usageByThread(
  summaries: readonly ExchangeSummary[],
): (UsageRollup & { sessionId: string | null; threadId: string | null })[] {
  const out = new Map<string, UsageRollup & { sessionId: string | null; threadId: string | null }>();
  for (const s of summaries) {
    if (s.kind !== 'model') continue;
    const key = `${s.sessionId}\u0000${s.threadId}`;
    let r = out.get(key);
    if (!r) out.set(key, (r = { sessionId: s.sessionId, threadId: s.threadId, ...emptyRollup() }));
    addSummary(r, s);
  }
  return [...out.values()];
}

/** Totals per turn (thread and turn id), in order of their first exchange. */
export function usageByTurn(summaries: readonly ExchangeSummary[]): TurnUsage[] {
  const first = new Map<string, ExchangeSummary>();
  for (const s of summaries) {
    const key = `${s.sessionId}\u0000${s.threadId}\u0000${s.turnId}`;
    const f = first.get(key);
    if (s.kind === 'model' && (!f || s.startedAt < f.startedAt)) first.set(key, s);
  }
  const rollups = groupBy(summaries, (s) => `${s.sessionId}\u0000${s.threadId}\u0000${s.turnId}`);
  return [...rollups]
    .map(([key, r]) => {
      const f = first.get(key) as ExchangeSummary;
      return { sessionId: f.sessionId, threadId: f.threadId, turnId: f.turnId, startedAt: f.startedAt, ...r };
    })
    .sort((a, b) => a.startedAt - b.startedAt);
}
