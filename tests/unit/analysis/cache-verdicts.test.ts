import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCache, type CacheThresholds } from '../../../companion/analysis/cache';
import { costOf } from '../../../companion/analysis/pricing';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import type {
  CacheAnalysis,
  FieldChange,
  ItemChange,
  ItemRef,
  RequestDiff,
  ToolChange,
  ToolRef,
} from '../../../companion/protocol/analysis';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import type { Usage } from '../../../companion/protocol/usage';
import { recordOf } from '../../support/records';

const T: CacheThresholds = { missMinTokens: 1024, missMinRatio: 0.1, cacheTtlMs: 5 * 60_000 };
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const KEY = '01a22950-a054-7d61-961c-93663e75bb90';

/** The first request of a real captured tool-call turn (fallback-tool-call-1), varied one field at a time. */
let base: ExchangeRecord;
beforeAll(async () => {
  base = await recordOf('fallback-tool-call-1.json');
  expect(base.identity.promptCacheKey).toBe(KEY);
});

const usage = (inputTokens: number | null, cachedTokens: number | null, outputTokens: number | null = 24): Usage => ({
  inputTokens,
  cachedTokens,
  cacheWriteTokens: null,
  outputTokens,
  reasoningTokens: null,
  totalTokens: null,
});

const rec = (more: Partial<ExchangeRecord> = {}): ExchangeRecord => ({ ...base, startedAt: T0, endedAt: T0 + 1000, ...more });
/** The previous request of the chain: 8,235 input + 24 output leave 8,192 tokens cacheable. */
const prev = (more: Partial<ExchangeRecord> = {}) => rec({ id: 'prev', usage: usage(8235, 0), ...more });
/** The current request, starting 3 s after the previous one ended. */
const cur = (more: Partial<ExchangeRecord> = {}) =>
  rec({ id: 'cur', startedAt: T0 + 4000, endedAt: T0 + 5000, usage: usage(8380, 8192), ...more });

const list = <X>(items: X[]) => ({ count: items.length, items });
/** A diff in which nothing changed but appended input. */
const diff = (more: Partial<RequestDiff> = {}, input: Partial<RequestDiff['input']> = {}): RequestDiff => ({
  previousId: 'prev',
  prefixPreserved: true,
  firstDivergence: null,
  fields: [],
  tools: { added: [], removed: [], changed: [] },
  instructions: { added: list([]), removed: list([]), changed: list([]) },
  input: {
    previousCount: 2,
    currentCount: 4,
    commonPrefix: 2,
    appended: list([]),
    echoed: 0,
    removed: list([]),
    inserted: list([]),
    changed: list([]),
    rewritten: false,
    ...input,
  },
  ...more,
});
const field = (f: string, from: string | null, to: string | null): FieldChange => ({ field: f, from, to });
const tool = (key: string): ToolRef => ({ key, namespace: null, name: key, placement: 'tools', kind: 'builtin' });
const item = (index: number, label: string): ItemRef => ({ index, type: 'message', role: 'user', label, labelCode: null });
const changedItem = (index: number, label: string, fields: string[]): ItemChange => ({
  ...item(index, label),
  previousIndex: index,
  fields,
});

const judge = (c: ExchangeRecord, p: ExchangeRecord | null, d: RequestDiff | null = null, t: CacheThresholds = T) =>
  analyzeCache(c, p, d, null, t);
/** A miss of the current request (nothing cached where 8,192 were expected), with `d` as its diff. */
const missWith = (d: RequestDiff | null, c: Partial<ExchangeRecord> = {}, p: Partial<ExchangeRecord> = {}) =>
  judge(cur({ usage: usage(8380, 0), ...c }), prev(p), d);
const reasons = (a: CacheAnalysis) => a.reasons.map((r) => [r.code, r.detail]);

describe('verdicts of exchanges that have nothing to judge', () => {
  it('calls a non-model exchange not applicable, keeping its figures', () => {
    expect(judge(cur({ kind: 'other' }), prev())).toEqual({
      verdict: 'not_applicable',
      why: 'not a model request: no prompt cache is involved',
      whyCode: { code: 'cacheWhy.notModel', params: {} },
      hitRate: 8192 / 8380,
      previousId: 'prev',
      idleMs: 3000,
      expectedCachedTokens: null,
      miss: false,
      reasons: [],
      missedTokens: null,
      missCostUsd: null,
    });
  });

  it('says what happened to an exchange without usage', () => {
    const why = (more: Partial<ExchangeRecord>) => {
      const a = judge(cur({ usage: null, ...more }), prev());
      expect(a).toMatchObject({ hitRate: null, expectedCachedTokens: null, miss: false, reasons: [] });
      return [a.verdict, a.why];
    };
    const error = (code: string, upstreamCode: string | null) => ({ code, message: 'm', upstreamCode });
    expect(why({ httpStatus: 429, status: 'failed', error: error('http_429', 'usage_limit_reached') })).toEqual([
      'not_applicable',
      'HTTP 429 usage_limit_reached: the request was refused before it reached the model, which reported no usage',
    ]);
    expect(why({ httpStatus: 400, status: 'failed', error: null })).toEqual([
      'not_applicable',
      'HTTP 400: the request was refused before it reached the model, which reported no usage',
    ]);
    expect(why({ httpStatus: 399, status: 'completed' })).toEqual(['not_applicable', 'the upstream reported no usage for this exchange']);
    expect(why({ status: 'streaming', httpStatus: 200 })).toEqual([
      'unknown',
      'still streaming: usage arrives with the end of the response',
    ]);
    expect(why({ status: 'failed', error: error('response_failed', 'server_error') })).toEqual([
      'not_applicable',
      'the request failed (response_failed server_error) and reported no usage',
    ]);
    expect(why({ status: 'failed', error: error('response_failed', null) })).toEqual([
      'not_applicable',
      'the request failed (response_failed) and reported no usage',
    ]);
    expect(why({ status: 'aborted', error: null })).toEqual(['not_applicable', 'the request aborted and reported no usage']);
    expect(why({ status: 'aborted', error: error('client_closed', null) })).toEqual([
      'not_applicable',
      'the request aborted (client_closed) and reported no usage',
    ]);
    expect(why({ status: 'upstream_error', httpStatus: null, error: error('upstream_unreachable', null) })).toEqual([
      'not_applicable',
      'the request never reached the upstream (upstream_unreachable) and reported no usage',
    ]);
    expect(why({ status: 'upstream_error', httpStatus: null, error: null })).toEqual([
      'not_applicable',
      'the request never reached the upstream and reported no usage',
    ]);
    expect(why({ status: 'completed', httpStatus: null })).toEqual(['not_applicable', 'the upstream reported no usage for this exchange']);
    expect(why({ status: 'incomplete', usage: usage(null, 0) })).toEqual([
      'not_applicable',
      'the upstream reported no usage for this exchange',
    ]);
  });

  it('gives the refusal code of an HTTP error and its status as text', () => {
    const a = judge(
      cur({ usage: null, httpStatus: 503, status: 'failed', error: { code: 'http_503', message: 'm', upstreamCode: 'overloaded' } }),
      null,
    );
    expect(a.whyCode).toEqual({ code: 'cacheWhy.refusedCode', params: { status: '503', code: 'overloaded' } });
    expect(a.previousId).toBeNull();
    expect(a.idleMs).toBeNull();
  });

  it('calls 0 input not applicable: a prewarm, or a request that sent nothing', () => {
    const prewarm = judge(cur({ usage: usage(0, 0, 0), identity: { ...base.identity, requestKind: 'prewarm' } }), prev());
    expect(prewarm).toMatchObject({ verdict: 'not_applicable', hitRate: null, expectedCachedTokens: null });
    expect(prewarm.why).toBe('prewarm (generate: false): the request gave the model no input, so nothing could be read from the cache');
    const zero = judge(cur({ usage: usage(0, 0, 5) }), prev());
    expect([zero.verdict, zero.why]).toEqual([
      'not_applicable',
      'the request reported 0 input tokens: nothing could be read from the cache',
    ]);
  });

  it('calls the cache read unknown when no cached_tokens field came, with or without a previous request', () => {
    for (const p of [prev(), null]) {
      const a = judge(cur({ usage: usage(8380, null) }), p);
      expect(a).toMatchObject({ verdict: 'unknown', hitRate: null, expectedCachedTokens: null, miss: false });
      expect(a.why).toBe('the upstream reported no cached_tokens field, so the cache read is unknown');
    }
  });
});

describe('the first request of a thread', () => {
  it('is cold when nothing was cached, naming its cache key when it has one', () => {
    const a = judge(cur({ usage: usage(8380, 0) }), null);
    expect(a).toMatchObject({ verdict: 'cold', expectedCachedTokens: 0, hitRate: 0, miss: false, previousId: null, idleMs: null });
    expect(a.why).toBe(`first request of this thread on prompt_cache_key ${KEY}: nothing cached yet`);
    const noKey = judge(cur({ usage: usage(8380, 0), identity: { ...base.identity, promptCacheKey: null } }), null);
    expect(noKey.why).toBe('first request of this thread: nothing cached yet');
  });

  it('is a hit when a shared prefix was cached, with the figures', () => {
    const a = judge(cur({ usage: usage(8380, 4096) }), null);
    expect(a).toMatchObject({ verdict: 'hit', expectedCachedTokens: 0, miss: false });
    expect(a.why).toBe(
      `first request of this thread on prompt_cache_key ${KEY}, yet 4,096 of its 8,380 input tokens came from the cache: an earlier request with the same prefix left them there`,
    );
    const noKey = judge(cur({ usage: usage(8380, 4096), identity: { ...base.identity, promptCacheKey: null } }), null);
    expect(noKey.whyCode).toEqual({ code: 'cacheWhy.firstHitNoKey', params: { cached: 4096, input: 8380 } });
  });
});

describe('what the previous request left cacheable', () => {
  it('is unknown when the previous request reported no complete usage', () => {
    for (const u of [null, usage(null, 0, 24), usage(8235, 0, null)]) {
      const a = judge(cur(), prev({ usage: u }));
      expect(a).toMatchObject({ verdict: 'unknown', expectedCachedTokens: null, miss: false, previousId: 'prev' });
      expect(a.why).toBe('the previous request of this thread reported no complete usage, so no expectation can be set');
    }
  });

  it('is its input plus output in 128-token blocks, capped at this request’s own input', () => {
    expect(judge(cur({ usage: usage(100_000, 8192) }), prev()).expectedCachedTokens).toBe(8192);
    expect(judge(cur({ usage: usage(5000, 4992) }), prev()).expectedCachedTokens).toBe(4992);
    expect(judge(cur({ usage: usage(100_000, 8192) }), prev({ usage: usage(8000, 0, 300) })).expectedCachedTokens).toBe(8192);
  });

  it('measures the idle time from the previous request’s end, or its start while it has none, never below 0', () => {
    expect(judge(cur(), prev({ endedAt: null })).idleMs).toBe(4000);
    expect(judge(cur({ startedAt: T0 + 500 }), prev()).idleMs).toBe(0);
  });
});

describe('hit, cold or miss against the expectation', () => {
  it('is a hit when the expected tokens were read', () => {
    const a = judge(cur(), prev());
    expect(a).toMatchObject({
      verdict: 'hit',
      expectedCachedTokens: 8192,
      miss: false,
      reasons: [],
      missedTokens: null,
      missCostUsd: null,
    });
    expect(a.why).toBe('read 8,192 cached tokens where 8,192 were expected');
  });

  it('is cold, not a miss, after a previous request below the caching minimum', () => {
    const a = judge(cur({ usage: usage(2000, 0) }), prev({ usage: usage(1000, 0, 23) }));
    expect(a).toMatchObject({ verdict: 'cold', expectedCachedTokens: 0, miss: false });
    expect(a.why).toBe('nothing cached yet: the previous request was below the 1,024 tokens OpenAI starts caching at');
  });

  it('is cold, not a miss, when nothing was read and the shortfall is within the threshold', () => {
    const a = judge(cur({ usage: usage(2000, 0) }), prev({ usage: usage(1000, 0, 24) }));
    expect(a).toMatchObject({ verdict: 'cold', expectedCachedTokens: 1024, miss: false });
    expect(a.why).toBe('nothing read from the cache; only 1,024 tokens were cacheable, within the miss threshold');
  });

  it('is a hit when a little less than expected was read, within the threshold', () => {
    const a = judge(cur({ usage: usage(8380, 8192 - 1024) }), prev());
    expect(a).toMatchObject({ verdict: 'hit', miss: false });
    expect(a.why).toBe('read 7,168 cached tokens where 8,192 were expected');
  });

  it('takes the ratio threshold when it is above the token threshold', () => {
    const big = prev({ usage: usage(100_000, 0, 0) });
    // 100,000 in 128-token blocks: 99,968 expected, 10 % of it is 9,996.8.
    expect(judge(cur({ usage: usage(200_000, 99_968 - 9996) }), big).miss).toBe(false);
    expect(judge(cur({ usage: usage(200_000, 99_968 - 9997) }), big).miss).toBe(true);
  });

  it('is a miss beyond the threshold, with the tokens it would have cached and what that cost', () => {
    const current = cur({ usage: usage(8380, 0) });
    const cost = costOf(BUILTIN_PRICES, { usage: current.usage, model: 'gpt-5-codex', serviceTier: null, chatgptPlan: false });
    const a = analyzeCache(current, prev(), diff(), cost, T);
    expect(a).toEqual({
      verdict: 'miss',
      why: 'read 0 cached tokens where 8,192 were expected: 8,192 short',
      whyCode: { code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } },
      hitRate: 0,
      previousId: 'prev',
      idleMs: 3000,
      expectedCachedTokens: 8192,
      miss: true,
      reasons: [
        {
          code: 'unexplained',
          detail: 'the request only appended to the previous one; the upstream likely evicted the cache',
          detailCodes: [{ code: 'cacheEvidence.onlyAppended', params: {} }],
        },
      ],
      missedTokens: 8192,
      missCostUsd: (8192 * (1.25 - 0.125)) / 1e6,
    });
  });

  it('never counts more missed tokens than the uncached input, and has no miss cost without a price', () => {
    const a = judge(cur({ usage: usage(8380, 2000) }), prev());
    expect(a).toMatchObject({ verdict: 'miss', missedTokens: 6192, missCostUsd: null });
    const over = judge(cur({ usage: usage(4000, 1000) }), prev());
    expect(over).toMatchObject({ verdict: 'miss', expectedCachedTokens: 3968, missedTokens: 2968 });
  });

  it('takes its thresholds from the options', () => {
    expect(judge(cur({ usage: usage(8380, 8000) }), prev(), diff(), { ...T, missMinTokens: 100, missMinRatio: 0.01 }).miss).toBe(true);
    expect(judge(cur({ usage: usage(8380, 8000) }), prev(), diff(), { ...T, missMinTokens: 191, missMinRatio: 0 }).miss).toBe(true);
    expect(judge(cur({ usage: usage(8380, 8000) }), prev(), diff(), { ...T, missMinTokens: 192, missMinRatio: 0 }).miss).toBe(false);
  });
});

describe('the reasons of a miss, read from the diff', () => {
  it('names a changed cache key, an absent side as none', () => {
    const a = missWith(diff({ fields: [field('prompt_cache_key', null, 'k2')] }));
    expect(a.reasons).toEqual([
      {
        code: 'cache_key_changed',
        detail: 'prompt_cache_key none → k2',
        detailCodes: [{ code: 'cacheEvidence.fieldChanged', params: { field: 'prompt_cache_key', from: '—', to: 'k2' } }],
      },
    ]);
    const dropped = missWith(diff({ fields: [field('prompt_cache_key', 'k1', null)] }));
    expect(dropped.reasons).toEqual([
      {
        code: 'cache_key_changed',
        detail: 'prompt_cache_key k1 → none',
        detailCodes: [{ code: 'cacheEvidence.fieldChanged', params: { field: 'prompt_cache_key', from: 'k1', to: '—' } }],
      },
    ]);
  });

  it('names upstream and profile changes as one reason', () => {
    const d = diff({ fields: [field('upstream', 'https://a', 'https://b'), field('profile', 'default', 'work')] });
    expect(reasons(missWith(d))).toEqual([['upstream_changed', 'upstream https://a → https://b; profile default → work']]);
    expect(reasons(missWith(diff({ fields: [field('profile', 'default', 'work')] })))).toEqual([
      ['upstream_changed', 'profile default → work'],
    ]);
  });

  it('names an idle gap only beyond the cache lifetime', () => {
    expect(reasons(missWith(diff(), { startedAt: T0 + 1000 + 5 * 60_000 }))).toEqual([
      ['unexplained', 'the request only appended to the previous one; the upstream likely evicted the cache'],
    ]);
    const late = missWith(diff(), { startedAt: T0 + 1001 + 5 * 60_000 });
    expect(late.reasons).toEqual([
      {
        code: 'idle_gap',
        detail: '5 min 0 s idle since the previous request on this key; the cache lives about 5 min 0 s',
        detailCodes: [{ code: 'cacheEvidence.idleGap', params: { idleMs: 5 * 60_000 + 1, ttlMs: 5 * 60_000 } }],
      },
    ]);
  });

  it('names a model change, and effort or service tier changes in words', () => {
    expect(reasons(missWith(diff({ fields: [field('model', 'gpt-5-codex', 'gpt-6-sol')] })))).toEqual([
      ['model_changed', 'model gpt-5-codex → gpt-6-sol'],
    ]);
    const d = diff({ fields: [field('reasoning_effort', 'low', 'high'), field('service_tier', null, 'priority')] });
    const a = missWith(d);
    expect(reasons(a)).toEqual([['reasoning_changed', 'effort low → high; service tier none → priority']]);
    expect(a.reasons[0].detailCodes).toEqual([
      { code: 'cacheEvidence.fieldChanged', params: { field: 'reasoning_effort', from: 'low', to: 'high' } },
      { code: 'cacheEvidence.fieldChanged', params: { field: 'service_tier', from: '—', to: 'priority' } },
    ]);
    expect(reasons(missWith(diff({ fields: [field('service_tier', 'flex', 'default')] })))).toEqual([
      ['reasoning_changed', 'service tier flex → default'],
    ]);
  });

  it('names tools added, removed and changed, the fields that changed, and at most six names', () => {
    const changed: ToolChange = { ...tool('exec_command'), fields: ['description', 'parameters'] };
    const all = diff({ tools: { added: [tool('a')], removed: [tool('r1'), tool('r2')], changed: [changed] } });
    expect(reasons(missWith(all))).toEqual([['tools_changed', 'added a; removed r1, r2; changed exec_command (description, parameters)']]);
    const many = diff({ tools: { added: ['t1', 't2', 't3', 't4', 't5', 't6', 't7'].map(tool), removed: [], changed: [] } });
    expect(reasons(missWith(many))).toEqual([['tools_changed', 'added t1, t2, t3, t4, t5, t6 +1 more']]);
    expect(reasons(missWith(diff({ tools: { added: [], removed: [tool('r')], changed: [] } })))).toEqual([['tools_changed', 'removed r']]);
    expect(reasons(missWith(diff({ tools: { added: [], removed: [], changed: [changed] } })))).toEqual([
      ['tools_changed', 'changed exec_command (description, parameters)'],
    ]);
  });

  it('names changed instructions: the field, developer messages changed, added or removed', () => {
    const d = diff({
      fields: [field('instructions', 'a', 'b')],
      instructions: {
        added: list([item(3, 'dev')]),
        removed: list([item(4, 'dev'), item(5, 'dev')]),
        changed: list([changedItem(1, 'dev', ['content'])]),
      },
    });
    expect(reasons(missWith(d))).toEqual([
      [
        'instructions_changed',
        'instructions field changed; developer message at input 1 changed (content); 1 developer message(s) added; 2 developer message(s) removed',
      ],
    ]);
    expect(reasons(missWith(diff({ fields: [field('instructions', 'a', 'b')] })))).toEqual([
      ['instructions_changed', 'instructions field changed'],
    ]);
    const added = diff({ instructions: { added: list([item(3, 'dev')]), removed: list([]), changed: list([]) } });
    expect(reasons(missWith(added))).toEqual([['instructions_changed', '1 developer message(s) added']]);
    const removed = diff({ instructions: { added: list([]), removed: list([item(3, 'dev')]), changed: list([]) } });
    expect(reasons(missWith(removed))).toEqual([['instructions_changed', '1 developer message(s) removed']]);
    const changed = diff({
      instructions: { added: list([]), removed: list([]), changed: list([changedItem(2, 'dev', ['content', 'role'])]) },
    });
    expect(reasons(missWith(changed))).toEqual([['instructions_changed', 'developer message at input 2 changed (content, role)']]);
  });

  it('names input rewritten by a compaction, with the window change when there is one', () => {
    const rewritten = { rewritten: true, removed: list([item(2, 'user: hi'), item(3, 'assistant: yes')]) };
    expect(reasons(missWith(diff({}, rewritten)))).toEqual([
      ['input_rewritten', 'history replaced by a compaction; 2 earlier item(s) gone'],
    ]);
    const windowed = diff({ fields: [field('window_number', '0', '1')] }, rewritten);
    expect(reasons(missWith(windowed))).toEqual([['input_rewritten', 'window 0 → 1; 2 earlier item(s) gone']]);
  });

  it('does not call a rewritten input truncated or modified', () => {
    const d = diff(
      {},
      { rewritten: true, removed: list([item(2, 'x')]), changed: list([changedItem(4, 'y', ['content'])]), inserted: list([item(5, 'z')]) },
    );
    expect(missWith(d).reasons.map((r) => r.code)).toEqual(['input_rewritten']);
  });

  it('names input truncated when earlier items were removed, with the first one', () => {
    expect(reasons(missWith(diff({}, { removed: list([item(2, 'user: hi'), item(3, 'assistant: yes')]) })))).toEqual([
      ['input_truncated', '2 earlier item(s) removed, first: user: hi'],
    ]);
    expect(reasons(missWith(diff({}, { removed: { count: 150, items: [] } })))).toEqual([
      ['input_truncated', '150 earlier item(s) removed, first: ?'],
    ]);
  });

  it('names earlier items modified or inserted', () => {
    const d = diff(
      {},
      { changed: list([changedItem(4, 'user: hi', ['content'])]), inserted: list([item(6, 'user: new'), item(7, 'user: newer')]) },
    );
    expect(reasons(missWith(d))).toEqual([
      ['input_modified', 'input 4 (user: hi) changed: content; 2 item(s) inserted before the end, first at input 6'],
    ]);
    expect(reasons(missWith(diff({}, { inserted: { count: 101, items: [] } })))).toEqual([
      ['input_modified', '101 item(s) inserted before the end, first at input 0'],
    ]);
  });

  it('gives every reason found, in a fixed order', () => {
    const d = diff(
      {
        fields: [
          field('service_tier', 'default', 'flex'),
          field('model', 'a', 'b'),
          field('profile', 'p', 'q'),
          field('prompt_cache_key', 'k1', 'k2'),
        ],
        tools: { added: [tool('t')], removed: [], changed: [] },
        instructions: { added: list([item(1, 'dev')]), removed: list([]), changed: list([]) },
      },
      { removed: list([item(2, 'x')]), inserted: list([item(5, 'z')]) },
    );
    expect(missWith(d, { startedAt: T0 + 10 * 60_000 }).reasons.map((r) => r.code)).toEqual([
      'cache_key_changed',
      'upstream_changed',
      'idle_gap',
      'model_changed',
      'reasoning_changed',
      'tools_changed',
      'instructions_changed',
      'input_truncated',
      'input_modified',
    ]);
  });

  it('calls a miss without a named change unexplained, saying what did change', () => {
    expect(
      reasons(missWith(diff({ prefixPreserved: false, fields: [field('stream', 'true', 'false'), field('store', null, 'true')] }))),
    ).toEqual([['unexplained', 'only stream, store changed; the upstream likely evicted the cache']]);
    expect(reasons(missWith(diff({ prefixPreserved: false })))).toEqual([
      ['unexplained', 'only appended input changed; the upstream likely evicted the cache'],
    ]);
  });

  it('says a change cannot be named when either side was read from a rollout', () => {
    const why =
      'read from a Codex rollout, which holds no tools, cache key, headers or route: a change there cannot be named, only ruled out in the input';
    expect(reasons(missWith(diff(), { source: 'rollout' }))).toEqual([['unexplained', why]]);
    expect(reasons(missWith(diff(), {}, { source: 'rollout' }))).toEqual([['unexplained', why]]);
    expect(reasons(missWith(diff({ fields: [field('model', 'a', 'b')] }), { source: 'rollout' })).map((r) => r[0])).toEqual([
      'model_changed',
    ]);
  });

  it('names only the timing when the request body was not captured', () => {
    expect(missWith(null).reasons).toEqual([
      {
        code: 'unexplained',
        detail: 'the request body was not captured, so no change can be named',
        detailCodes: [{ code: 'cacheEvidence.noBody', params: {} }],
      },
    ]);
    expect(missWith(null, { startedAt: T0 + 1000 + 6 * 60_000 }).reasons.map((r) => [r.code, r.detail])).toEqual([
      ['idle_gap', '6 min 0 s idle since the previous request on this key; the cache lives about 5 min 0 s'],
    ]);
  });
});
