/**
 * @module Cache hit or miss of one exchange, and why. Expected cached tokens: what the previous
 * request of the chain left cacheable (its reported input plus its output, which Codex echoes
 * back as input). A miss falls short of that by more than max(missMinTokens, missMinRatio ×
 * expected); every miss gets reasons with evidence, read from the diff against that request.
 */
import type { CacheAnalysis, CacheReason, CostBreakdown, RequestDiff } from '../protocol/analysis';
import type { ExchangeRecord } from '../protocol/exchange';
import { missCost } from './pricing';
import { cacheableTokens, hitRate } from './token-math';

export interface CacheThresholds {
  /** A shortfall must exceed this many tokens… (default 1,024) */
  missMinTokens: number;
  /** …and this share of the expectation (default 0.10) to be a miss. */
  missMinRatio: number;
  /** Prompt-cache lifetime; a longer idle gap is a reason of its own (default 5 minutes). */
  cacheTtlMs: number;
}

const duration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** Names, at most `max` of them, then "+N more". */
const names = (list: string[], max = 6): string =>
  list.length > max ? `${list.slice(0, max).join(', ')} +${list.length - max} more` : list.join(', ');

/** An idle gap longer than the cache lifetime, or null. */
function idleReason(idleMs: number | null, t: CacheThresholds): CacheReason | null {
  if (idleMs === null || idleMs <= t.cacheTtlMs) return null;
  return {
    code: 'idle_gap',
    detail: `${duration(idleMs)} idle since the previous request on this key; the cache lives about ${duration(t.cacheTtlMs)}`,
  };
}

/** Every reason the diff and the timing give for a shortfall, in a fixed order. */
function missReasons(diff: RequestDiff, idleMs: number | null, t: CacheThresholds): CacheReason[] {
  const reasons: CacheReason[] = [];
  const field = (f: string) => diff.fields.find((x) => x.field === f);
  const change = (f: string, label = f) => {
    const x = field(f);
    return x ? `${label} ${x.from ?? 'none'} → ${x.to ?? 'none'}` : null;
  };
  const key = change('prompt_cache_key');
  if (key) reasons.push({ code: 'cache_key_changed', detail: key });
  const upstream = [change('upstream'), change('profile')].filter(Boolean).join('; ');
  if (upstream) reasons.push({ code: 'upstream_changed', detail: upstream });
  const idle = idleReason(idleMs, t);
  if (idle) reasons.push(idle);
  const model = change('model');
  if (model) reasons.push({ code: 'model_changed', detail: model });
  const reasoning = [change('reasoning_effort', 'effort'), change('service_tier', 'service tier')].filter(Boolean).join('; ');
  if (reasoning) reasons.push({ code: 'reasoning_changed', detail: reasoning });
  const { added, removed, changed } = diff.tools;
  if (added.length + removed.length + changed.length > 0) {
    const parts = [
      added.length ? `added ${names(added.map((x) => x.key))}` : '',
      removed.length ? `removed ${names(removed.map((x) => x.key))}` : '',
      changed.length ? `changed ${names(changed.map((x) => `${x.key} (${x.fields.join(', ')})`))}` : '',
    ];
    reasons.push({ code: 'tools_changed', detail: parts.filter(Boolean).join('; ') });
  }
  const ins = diff.instructions;
  const instructionsField = change('instructions', 'instructions field');
  if (ins.added.count + ins.removed.count + ins.changed.count > 0 || instructionsField) {
    const parts = [
      instructionsField ? 'instructions field changed' : '',
      ...ins.changed.items.map((c) => `developer message at input ${c.index} changed (${c.fields.join(', ')})`),
      ins.added.count ? `${ins.added.count} developer message(s) added` : '',
      ins.removed.count ? `${ins.removed.count} developer message(s) removed` : '',
    ];
    reasons.push({ code: 'instructions_changed', detail: parts.filter(Boolean).join('; ') });
  }
  const input = diff.input;
  if (input.rewritten) {
    const window = change('window_number', 'window');
    reasons.push({
      code: 'input_rewritten',
      detail: `${window ?? 'history replaced by a compaction'}; ${input.removed.count} earlier item(s) gone`,
    });
  } else {
    if (input.removed.count > 0)
      reasons.push({
        code: 'input_truncated',
        detail: `${input.removed.count} earlier item(s) removed, first: ${input.removed.items[0]?.label ?? '?'}`,
      });
    const edits = [
      ...input.changed.items.map((c) => `input ${c.index} (${c.label}) changed: ${c.fields.join(', ')}`),
      input.inserted.count
        ? `${input.inserted.count} item(s) inserted before the end, first at input ${input.inserted.items[0]?.index}`
        : '',
    ].filter(Boolean);
    if (edits.length > 0) reasons.push({ code: 'input_modified', detail: edits.join('; ') });
  }
  if (reasons.length === 0) {
    const other = diff.fields.map((f) => f.field);
    reasons.push({
      code: 'unexplained',
      detail: diff.prefixPreserved
        ? 'the request only appended to the previous one; the upstream likely evicted the cache'
        : `only ${other.length ? other.join(', ') : 'appended input'} changed; the upstream likely evicted the cache`,
    });
  }
  return reasons;
}

/** Reasons when a request body was not captured (too large, undecodable): only the timing can speak. */
function withoutBody(idleMs: number | null, t: CacheThresholds): CacheReason[] {
  return [idleReason(idleMs, t) ?? { code: 'unexplained', detail: 'the request body was not captured, so no change can be named' }];
}

/** The cache figures of `current` against `previous` (same chain), with `diff` between them. */
export function analyzeCache(
  current: ExchangeRecord,
  previous: ExchangeRecord | null,
  diff: RequestDiff | null,
  cost: CostBreakdown | null,
  t: CacheThresholds,
): CacheAnalysis {
  const u = current.usage;
  const base = { hitRate: hitRate(u), previousId: previous?.id ?? null, missedTokens: null, missCostUsd: null };
  if (!previous) {
    const key = current.identity.promptCacheKey;
    return {
      ...base,
      expectedCachedTokens: 0,
      miss: false,
      idleMs: null,
      reasons: [{ code: 'cold', detail: `first request of this thread${key ? ` on prompt_cache_key ${key}` : ''}: nothing cached yet` }],
    };
  }
  const idleMs = Math.max(0, current.startedAt - (previous.endedAt ?? previous.startedAt));
  const pu = previous.usage;
  const expected = pu && pu.inputTokens !== null && pu.outputTokens !== null ? cacheableTokens(pu.inputTokens + pu.outputTokens) : null;
  const cached = u?.cachedTokens ?? null;
  const shortfall = expected !== null && cached !== null ? expected - cached : null;
  const miss = shortfall !== null && shortfall > Math.max(t.missMinTokens, t.missMinRatio * (expected ?? 0));
  if (!miss || !u || u.inputTokens === null || cached === null || shortfall === null)
    return { ...base, expectedCachedTokens: expected, miss: false, idleMs, reasons: [] };
  // Tokens that would have been cached: the shortfall, but never more than this request's uncached input.
  const missedTokens = Math.max(0, Math.min(shortfall, u.inputTokens - cached));
  return {
    ...base,
    expectedCachedTokens: expected,
    miss,
    idleMs,
    reasons: diff ? missReasons(diff, idleMs, t) : withoutBody(idleMs, t),
    missedTokens,
    missCostUsd: missCost(cost, missedTokens),
  };
}

/** One word for a cache analysis: `miss`, `cold` (first of its chain), `hit`, or `unknown` (no cache field). */
export type CacheVerdict = 'hit' | 'miss' | 'cold' | 'unknown';

export function cacheVerdict(c: Pick<CacheAnalysis, 'miss' | 'reasons' | 'hitRate'>): CacheVerdict {
  if (c.miss) return 'miss';
  if (c.reasons.some((r) => r.code === 'cold')) return 'cold';
  return c.hitRate === null ? 'unknown' : 'hit';
}
