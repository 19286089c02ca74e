/**
 * @module Cache hit or miss of one exchange, and why. Expected cached tokens: what the previous
 * request of the chain left cacheable (its reported input plus its output, which Codex echoes
 * back as input). A miss falls short of that by more than max(missMinTokens, missMinRatio ×
 * expected); every miss gets reasons with evidence, read from the diff against that request.
 * Every exchange gets a verdict (hit, miss, cold, unknown, not applicable) and the why of it.
 */
import type { CacheAnalysis, CacheReason, CostBreakdown, RequestDiff } from '../protocol/analysis';
import type { ExchangeRecord, ExchangeSummary } from '../protocol/exchange';
import { missCost } from './pricing';
import { nameList, phrase, phrases, type Phrase } from './texts';
import { cacheableTokens, hitRate } from './token-math';

export interface CacheThresholds {
  /** A shortfall must exceed this many tokens… (default 1,024) */
  missMinTokens: number;
  /** …and this share of the expectation (default 0.10) to be a miss. */
  missMinRatio: number;
  /** Prompt-cache lifetime; a longer idle gap is a reason of its own (default 5 minutes). */
  cacheTtlMs: number;
}

/** An idle gap longer than the cache lifetime, or null. */
function idleReason(idleMs: number | null, t: CacheThresholds): CacheReason | null {
  if (idleMs === null || idleMs <= t.cacheTtlMs) return null;
  return reason('idle_gap', [phrase('cacheEvidence.idleGap', { idleMs, ttlMs: t.cacheTtlMs })]);
}

/** A reason with its evidence, in English and as codes. */
function reason(code: CacheReason['code'], evidence: Phrase[]): CacheReason {
  const { text, codes } = phrases(evidence);
  return { code, detail: text, detailCodes: codes };
}

/** English names of fields whose wire name the English does not use. */
const FIELD_WORDS: Record<string, string> = {
  reasoning_effort: 'effort',
  service_tier: 'service tier',
  instructions: 'instructions field',
  window_number: 'window',
};

/** Every reason the diff and the timing give for a shortfall, in a fixed order. `fromRollout`: either side was read from a Codex rollout. */
function missReasons(diff: RequestDiff, idleMs: number | null, t: CacheThresholds, fromRollout: boolean): CacheReason[] {
  const reasons: CacheReason[] = [];
  const field = (f: string) => diff.fields.find((x) => x.field === f);
  const change = (f: string): Phrase | null => {
    const x = field(f);
    if (!x) return null;
    const english: Record<string, string> = { ...(FIELD_WORDS[f] ? { field: FIELD_WORDS[f] } : {}) };
    if (x.from === null) english.from = 'none';
    if (x.to === null) english.to = 'none';
    return phrase('cacheEvidence.fieldChanged', { field: f, from: x.from ?? '—', to: x.to ?? '—' }, english);
  };
  const present = (list: (Phrase | null)[]): Phrase[] => list.filter((p): p is Phrase => p !== null);
  const key = change('prompt_cache_key');
  if (key) reasons.push(reason('cache_key_changed', [key]));
  const upstream = present([change('upstream'), change('profile')]);
  if (upstream.length) reasons.push(reason('upstream_changed', upstream));
  const idle = idleReason(idleMs, t);
  if (idle) reasons.push(idle);
  const model = change('model');
  if (model) reasons.push(reason('model_changed', [model]));
  const reasoning = present([change('reasoning_effort'), change('service_tier')]);
  if (reasoning.length) reasons.push(reason('reasoning_changed', reasoning));
  const { added, removed, changed } = diff.tools;
  if (added.length + removed.length + changed.length > 0) {
    reasons.push(
      reason(
        'tools_changed',
        present([
          added.length ? phrase('cacheEvidence.toolsAdded', { names: nameList(added.map((x) => x.key)) }) : null,
          removed.length ? phrase('cacheEvidence.toolsRemoved', { names: nameList(removed.map((x) => x.key)) }) : null,
          changed.length
            ? phrase('cacheEvidence.toolsChanged', { names: nameList(changed.map((x) => `${x.key} (${x.fields.join(', ')})`)) })
            : null,
        ]),
      ),
    );
  }
  const ins = diff.instructions;
  const instructionsField = field('instructions');
  if (ins.added.count + ins.removed.count + ins.changed.count > 0 || instructionsField) {
    reasons.push(
      reason(
        'instructions_changed',
        present([
          instructionsField ? phrase('cacheEvidence.instructionsField') : null,
          ...ins.changed.items.map((c) =>
            phrase('cacheEvidence.developerChanged', { index: c.index, fields: { items: c.fields, more: 0 } }),
          ),
          ins.added.count ? phrase('cacheEvidence.developerAdded', { n: ins.added.count }) : null,
          ins.removed.count ? phrase('cacheEvidence.developerRemoved', { n: ins.removed.count }) : null,
        ]),
      ),
    );
  }
  const input = diff.input;
  if (input.rewritten) {
    reasons.push(
      reason('input_rewritten', [
        change('window_number') ?? phrase('cacheEvidence.historyReplaced'),
        phrase('cacheEvidence.itemsGone', { n: input.removed.count }),
      ]),
    );
  } else {
    if (input.removed.count > 0)
      reasons.push(
        reason('input_truncated', [
          phrase('cacheEvidence.itemsRemoved', { n: input.removed.count, first: input.removed.items[0]?.label ?? '?' }),
        ]),
      );
    const edits = present([
      ...input.changed.items.map((c) =>
        phrase('cacheEvidence.itemChanged', { index: c.index, label: c.label, fields: { items: c.fields, more: 0 } }),
      ),
      input.inserted.count
        ? phrase('cacheEvidence.itemsInserted', { n: input.inserted.count, index: input.inserted.items[0]?.index ?? 0 })
        : null,
    ]);
    if (edits.length > 0) reasons.push(reason('input_modified', edits));
  }
  if (reasons.length === 0 && fromRollout) {
    reasons.push(reason('unexplained', [phrase('cacheEvidence.fromRollout')]));
  } else if (reasons.length === 0) {
    const other = diff.fields.map((f) => f.field);
    reasons.push(
      reason('unexplained', [
        diff.prefixPreserved
          ? phrase('cacheEvidence.onlyAppended')
          : other.length
            ? phrase('cacheEvidence.onlyChanged', { fields: { items: other, more: 0 } })
            : phrase('cacheEvidence.onlyAppendedInput'),
      ]),
    );
  }
  return reasons;
}

/** Reasons when a request body was not captured (too large, undecodable): only the timing can speak. */
function withoutBody(idleMs: number | null, t: CacheThresholds): CacheReason[] {
  return [idleReason(idleMs, t) ?? reason('unexplained', [phrase('cacheEvidence.noBody')])];
}

/** Why an exchange without usage has no verdict: what happened to it, from its status and error. */
function noUsageWhy(r: ExchangeRecord): Phrase {
  const upstreamCode = r.error?.upstreamCode ?? null;
  if (r.httpStatus !== null && r.httpStatus >= 400)
    return upstreamCode
      ? phrase('cacheWhy.refusedCode', { status: String(r.httpStatus), code: upstreamCode })
      : phrase('cacheWhy.refused', { status: String(r.httpStatus) });
  if (r.status === 'streaming') return phrase('cacheWhy.streaming');
  if (r.status === 'failed' || r.status === 'aborted' || r.status === 'upstream_error') {
    const name = r.status === 'upstream_error' ? 'unreached' : r.status;
    if (!r.error) return phrase(`cacheWhy.${name}Bare` as const);
    return phrase(`cacheWhy.${name}` as const, { error: `${r.error.code}${upstreamCode ? ` ${upstreamCode}` : ''}` });
  }
  return phrase('cacheWhy.noUsage');
}

type Judged = Omit<CacheAnalysis, 'hitRate' | 'previousId' | 'idleMs'>;

const judged = (verdict: CacheAnalysis['verdict'], why: Phrase, expectedCachedTokens: number | null): Judged => ({
  verdict,
  why: why.text,
  whyCode: why.code,
  expectedCachedTokens,
  miss: false,
  reasons: [],
  missedTokens: null,
  missCostUsd: null,
});

/** The figures of an exchange that has nothing to judge, or null when it has. */
function notApplicable(current: ExchangeRecord): Judged | null {
  const u = current.usage;
  if (current.kind !== 'model') return judged('not_applicable', phrase('cacheWhy.notModel'), null);
  if (!u || u.inputTokens === null) return judged(current.status === 'streaming' ? 'unknown' : 'not_applicable', noUsageWhy(current), null);
  if (u.inputTokens === 0)
    return judged(
      'not_applicable',
      current.identity.requestKind === 'prewarm' ? phrase('cacheWhy.prewarm') : phrase('cacheWhy.zeroInput'),
      null,
    );
  return null;
}

/** The first request of a thread: cold when nothing was cached, a hit when a shared prefix was. */
function firstOfThread(current: ExchangeRecord, cached: number, input: number): Judged {
  const key = current.identity.promptCacheKey;
  if (cached === 0) return judged('cold', key ? phrase('cacheWhy.firstCold', { key }) : phrase('cacheWhy.firstColdNoKey'), 0);
  return judged('hit', key ? phrase('cacheWhy.firstHit', { key, cached, input }) : phrase('cacheWhy.firstHitNoKey', { cached, input }), 0);
}

/** OpenAI caches a prompt from this many tokens on (token-math.ts `cacheableTokens`). */
const CACHE_MINIMUM = 1024;

/**
 * The cache figures of `current` against `previous` (same chain), with `diff` between them. Of
 * the previous exchange only its summary is read (id, times, usage, source).
 */
export function analyzeCache(
  current: ExchangeRecord,
  previous: ExchangeSummary | null,
  diff: RequestDiff | null,
  cost: CostBreakdown | null,
  t: CacheThresholds,
): CacheAnalysis {
  const u = current.usage;
  const idleMs = previous ? Math.max(0, current.startedAt - (previous.endedAt ?? previous.startedAt)) : null;
  const base = { hitRate: hitRate(u), previousId: previous?.id ?? null, idleMs };
  const na = notApplicable(current);
  if (na || !u || u.inputTokens === null) return { ...base, ...(na ?? judged('unknown', noUsageWhy(current), null)) };
  const input = u.inputTokens;
  const cached = u.cachedTokens;
  if (cached === null) return { ...base, ...judged('unknown', phrase('cacheWhy.noCachedField'), null) };
  if (!previous) return { ...base, ...firstOfThread(current, cached, input) };
  const pu = previous.usage;
  // The previous request can have left more cacheable than this one sends (after a compaction):
  // no request reads more from the cache than its own input holds.
  const expected =
    pu && pu.inputTokens !== null && pu.outputTokens !== null
      ? Math.min(cacheableTokens(pu.inputTokens + pu.outputTokens), cacheableTokens(input))
      : null;
  if (expected === null)
    return {
      ...base,
      ...judged('unknown', phrase('cacheWhy.previousNoUsage'), null),
    };
  const shortfall = expected - cached;
  const miss = shortfall > Math.max(t.missMinTokens, t.missMinRatio * expected);
  if (!miss) {
    if (cached === 0)
      return {
        ...base,
        ...judged(
          'cold',
          expected === 0
            ? phrase('cacheWhy.coldBelowMinimum', { minimum: CACHE_MINIMUM })
            : phrase('cacheWhy.coldWithinThreshold', { expected }),
          expected,
        ),
      };
    return { ...base, ...judged('hit', phrase('cacheWhy.hit', { cached, expected }), expected) };
  }
  // Tokens that would have been cached: the shortfall, but never more than this request's uncached input.
  const missedTokens = Math.max(0, Math.min(shortfall, input - cached));
  const why = phrase('cacheWhy.miss', { cached, expected, shortfall });
  return {
    ...base,
    verdict: 'miss',
    why: why.text,
    whyCode: why.code,
    expectedCachedTokens: expected,
    miss: true,
    reasons: diff ? missReasons(diff, idleMs, t, current.source === 'rollout' || previous.source === 'rollout') : withoutBody(idleMs, t),
    missedTokens,
    missCostUsd: missCost(cost, missedTokens),
  };
}
