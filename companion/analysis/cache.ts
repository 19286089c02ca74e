/**
 * @module Cache hit or miss of one exchange, and why. Expected cached tokens: what the previous
 * request of the chain left cacheable (its reported input plus its output, which Codex echoes
 * back as input). A miss falls short of that by more than max(missMinTokens, missMinRatio ×
 * expected); every miss gets reasons with evidence, read from the diff against that request.
 * Every exchange gets a verdict (hit, miss, cold, unknown, not applicable) and the why of it.
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

/** Every reason the diff and the timing give for a shortfall, in a fixed order. `fromRollout`: either side was read from a Codex rollout. */
function missReasons(diff: RequestDiff, idleMs: number | null, t: CacheThresholds, fromRollout: boolean): CacheReason[] {
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
  if (reasons.length === 0 && fromRollout) {
    reasons.push({
      code: 'unexplained',
      detail:
        'read from a Codex rollout, which holds no tools, cache key, headers or route: a change there cannot be named, only ruled out in the input',
    });
  } else if (reasons.length === 0) {
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

const int = (n: number): string => n.toLocaleString('en-US');

/** Why an exchange without usage has no verdict: what happened to it, from its status and error. */
function noUsageWhy(r: ExchangeRecord): string {
  const code = r.error?.upstreamCode ? ` ${r.error.upstreamCode}` : '';
  if (r.httpStatus !== null && r.httpStatus >= 400)
    return `HTTP ${r.httpStatus}${code}: the request was refused before it reached the model, which reported no usage`;
  if (r.status === 'streaming') return 'still streaming: usage arrives with the end of the response';
  if (r.status === 'failed' || r.status === 'aborted' || r.status === 'upstream_error')
    return `the request ${r.status === 'upstream_error' ? 'never reached the upstream' : r.status}${r.error ? ` (${r.error.code}${code})` : ''} and reported no usage`;
  return 'the upstream reported no usage for this exchange';
}

type Judged = Omit<CacheAnalysis, 'hitRate' | 'previousId' | 'idleMs'>;

const judged = (verdict: CacheAnalysis['verdict'], why: string, expectedCachedTokens: number | null): Judged => ({
  verdict,
  why,
  expectedCachedTokens,
  miss: false,
  reasons: [],
  missedTokens: null,
  missCostUsd: null,
});

/** The figures of an exchange that has nothing to judge, or null when it has. */
function notApplicable(current: ExchangeRecord): Judged | null {
  const u = current.usage;
  if (current.kind !== 'model') return judged('not_applicable', 'not a model request: no prompt cache is involved', null);
  if (!u || u.inputTokens === null) return judged(current.status === 'streaming' ? 'unknown' : 'not_applicable', noUsageWhy(current), null);
  if (u.inputTokens === 0)
    return judged(
      'not_applicable',
      current.identity.requestKind === 'prewarm'
        ? 'prewarm (generate: false): the request gave the model no input, so nothing could be read from the cache'
        : 'the request reported 0 input tokens: nothing could be read from the cache',
      null,
    );
  return null;
}

/** The first request of a thread: cold when nothing was cached, a hit when a shared prefix was. */
function firstOfThread(current: ExchangeRecord, cached: number, input: number): Judged {
  const key = current.identity.promptCacheKey;
  const on = key ? ` on prompt_cache_key ${key}` : '';
  if (cached === 0) return judged('cold', `first request of this thread${on}: nothing cached yet`, 0);
  return judged(
    'hit',
    `first request of this thread${on}, yet ${int(cached)} of its ${int(input)} input tokens came from the cache: an earlier request with the same prefix left them there`,
    0,
  );
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
  const idleMs = previous ? Math.max(0, current.startedAt - (previous.endedAt ?? previous.startedAt)) : null;
  const base = { hitRate: hitRate(u), previousId: previous?.id ?? null, idleMs };
  const na = notApplicable(current);
  if (na || !u || u.inputTokens === null) return { ...base, ...(na ?? judged('unknown', noUsageWhy(current), null)) };
  const input = u.inputTokens;
  const cached = u.cachedTokens;
  if (cached === null)
    return { ...base, ...judged('unknown', 'the upstream reported no cached_tokens field, so the cache read is unknown', null) };
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
      ...judged('unknown', 'the previous request of this thread reported no complete usage, so no expectation can be set', null),
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
            ? 'nothing cached yet: the previous request was below the 1,024 tokens OpenAI starts caching at'
            : `nothing read from the cache; only ${int(expected)} tokens were cacheable, within the miss threshold`,
          expected,
        ),
      };
    return { ...base, ...judged('hit', `read ${int(cached)} cached tokens where ${int(expected)} were expected`, expected) };
  }
  // Tokens that would have been cached: the shortfall, but never more than this request's uncached input.
  const missedTokens = Math.max(0, Math.min(shortfall, input - cached));
  return {
    ...base,
    verdict: 'miss',
    why: `read ${int(cached)} cached tokens where ${int(expected)} were expected: ${int(shortfall)} short`,
    expectedCachedTokens: expected,
    miss: true,
    reasons: diff ? missReasons(diff, idleMs, t, current.source === 'rollout' || previous.source === 'rollout') : withoutBody(idleMs, t),
    missedTokens,
    missCostUsd: missCost(cost, missedTokens),
  };
}
