/**
 * @module The analysis stage's entry point: one captured exchange (and the previous exchange of
 * its chain) in, its `ExchangeAnalysis` out. Pure: no I/O, no clock; cheap enough to run once
 * per captured exchange.
 */
import type { ExchangeAnalysis, ExchangeFacts, PriceTable } from '../protocol/analysis';
import { ANALYSIS_VERSION } from '../protocol/version';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { analyzeCache, type CacheThresholds } from './cache';
import { contextBreakdown } from './context';
import { diffExchanges } from './diff';
import { BUILTIN_PRICES } from './prices';
import { priceExchange } from './pricing';
import { readRequest } from './request-shape';
import { spawnLinks } from './spawn-links';
import { blendedTokens, uncachedInput } from './token-math';

export interface AnalysisOptions extends CacheThresholds {
  prices: PriceTable;
  /** The version of `prices` (store/prices-file.ts), recorded so a changed table is noticed; null when unnamed. */
  pricesVersion: string | null;
  /** Context window of a model, or null when unknown (see models-metadata.ts). */
  contextWindow: (model: string) => number | null;
}

export const DEFAULT_ANALYSIS_OPTIONS: AnalysisOptions = {
  missMinTokens: 1024,
  missMinRatio: 0.1,
  cacheTtlMs: 5 * 60_000,
  prices: BUILTIN_PRICES,
  pricesVersion: null,
  contextWindow: () => null,
};

/**
 * Whether `earlier` is a candidate "previous exchange" for `later`: a model exchange of the same
 * session and thread that started before it and was processed (reported usage). The chain is the
 * thread, not the prompt_cache_key, so that a key change inside a thread can be named as a reason;
 * Codex keeps one key per session, so normally this is "same key and thread".
 */
export function isSameChain(earlier: ExchangeSummary, later: ExchangeSummary): boolean {
  return (
    earlier.id !== later.id &&
    earlier.kind === 'model' &&
    later.kind === 'model' &&
    earlier.sessionId !== null &&
    earlier.sessionId === later.sessionId &&
    earlier.threadId !== null &&
    earlier.threadId === later.threadId &&
    (earlier.startedAt < later.startedAt || (earlier.startedAt === later.startedAt && earlier.id < later.id)) &&
    earlier.usage?.inputTokens != null
  );
}

/** The latest candidate in `candidates` that `isSameChain` with `current`, or null. */
export function previousInChain<T extends ExchangeSummary>(candidates: Iterable<T>, current: ExchangeSummary): T | null {
  let best: T | null = null;
  for (const c of candidates)
    if (isSameChain(c, current) && (!best || c.startedAt > best.startedAt || (c.startedAt === best.startedAt && c.id > best.id))) best = c;
  return best;
}

/** What roll-ups need from the record beyond its summary. */
export function exchangeFacts(record: ExchangeRecord): ExchangeFacts {
  const shape = readRequest(record.request.body);
  return {
    reasoningEffort: shape.reasoningEffort ?? record.identity.reasoningEffort,
    serviceTier: shape.serviceTier,
    spawns: record.kind === 'model' ? spawnLinks(record.request.body) : [],
  };
}

/** Whether an exchange has a request body to analyse: a model exchange whose request was captured. */
export function hasRequestBody(r: ExchangeRecord): boolean {
  return r.kind === 'model' && r.request.body !== null && typeof r.request.body === 'object';
}

/**
 * Analyses `current` against `previous`, the previous exchange of its chain (`previousInChain`),
 * or null when it has none. Without a request body in `current` (`hasRequestBody`) there is
 * nothing to compare, and the previous exchange's summary is all that is read of it.
 */
export function analyzeExchange(
  current: ExchangeRecord,
  previous: ExchangeRecord | ExchangeSummary | null,
  options: Partial<AnalysisOptions> = {},
): ExchangeAnalysis {
  const o: AnalysisOptions = { ...DEFAULT_ANALYSIS_OPTIONS, ...options };
  const facts = exchangeFacts(current);
  // The served model did the work and is priced; the requested one is named beside it.
  const model = current.model ?? current.route.modelSent;
  const priced = priceExchange(o.prices, {
    usage: current.usage,
    model,
    requestedModel: current.route.modelRequested,
    serviceTier: facts.serviceTier,
    chatgptPlan: current.route.auth === 'chatgpt',
  });
  const cost = priced.cost;
  const hasBody = hasRequestBody(current);
  const diff = previous && hasBody && 'request' in previous ? diffExchanges(previous, current) : null;
  const windowModel = current.identity.model ?? model;
  const cache = analyzeCache(current, previous, diff, cost, o);
  return {
    version: ANALYSIS_VERSION,
    pricesVersion: o.pricesVersion,
    cache,
    diff,
    context: hasBody
      ? contextBreakdown(current.request.body, {
          reportedInputTokens: current.usage?.inputTokens ?? null,
          contextWindow: windowModel ? o.contextWindow(windowModel) : null,
        })
      : null,
    costUsd: priced.usd,
    cost,
    pricing: priced.pricing,
    usage: { uncachedInput: uncachedInput(current.usage), blendedTokens: blendedTokens(current.usage) },
    facts,
  };
}

/** The list-row brief of an analysis (the live feed's `cache`). */
export function cacheBrief(a: ExchangeAnalysis): NonNullable<ExchangeSummary['cache']> {
  return {
    verdict: a.cache.verdict,
    why: a.cache.why,
    whyCode: a.cache.whyCode,
    hitRate: a.cache.hitRate,
    miss: a.cache.miss,
    reasons: a.cache.reasons.map((r) => r.code),
    expectedCachedTokens: a.cache.expectedCachedTokens,
    missedTokens: a.cache.missedTokens,
    missCostUsd: a.cache.missCostUsd,
  };
}
