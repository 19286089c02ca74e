import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeExchange,
  cacheBrief,
  DEFAULT_ANALYSIS_OPTIONS,
  exchangeFacts,
  isSameChain,
  previousInChain,
} from '../../../companion/analysis/analyze';
import { BUILTIN_PRICES } from '../../../companion/analysis/prices';
import { ANALYSIS_VERSION, type ExchangeAnalysis } from '../../../companion/protocol/analysis';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { loadFixture, recordFrom, recordOf } from '../../support/records';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** The two requests of a real captured tool-call turn (fallback-tool-call), varied one field at a time. */
let first: ExchangeRecord;
let second: ExchangeRecord;
beforeAll(async () => {
  first = await recordOf('fallback-tool-call-1.json', { id: 'b-first', startedAt: T0 });
  second = await recordOf('fallback-tool-call-2.json', { id: 'c-second', startedAt: T0 + 5000 });
});

describe('which earlier exchange is of the same chain', () => {
  it('never takes an exchange for its own previous one, even a copy with another start time', () => {
    expect(isSameChain({ ...second, startedAt: second.startedAt - 1000 }, second)).toBe(false);
    expect(previousInChain([{ ...second, startedAt: T0 }], second)).toBeNull();
  });

  it('needs both to be model exchanges', () => {
    expect(isSameChain(first, second)).toBe(true);
    expect(isSameChain(first, { ...second, kind: 'other' })).toBe(false);
  });

  it('needs a known session and thread on both', () => {
    expect(isSameChain({ ...first, sessionId: null }, { ...second, sessionId: null })).toBe(false);
    expect(isSameChain({ ...first, threadId: null }, { ...second, threadId: null })).toBe(false);
  });

  it('orders exchanges that started at the same time by id', () => {
    const same = { ...first, startedAt: second.startedAt };
    expect(isSameChain(same, second)).toBe(true);
    expect(isSameChain({ ...same, id: 'd-later' }, second)).toBe(false);
    expect(isSameChain({ ...first, startedAt: second.startedAt + 1, id: 'a' }, second)).toBe(false);
  });

  it('needs the earlier one to have reported its input, even 0 of it', () => {
    expect(isSameChain({ ...first, usage: { ...first.usage!, inputTokens: null } }, second)).toBe(false);
    expect(isSameChain({ ...first, usage: { ...first.usage!, inputTokens: 0 } }, second)).toBe(true);
  });

  it('takes the latest candidate, the higher id among those that started together', () => {
    const a = { ...first, id: 'a1', startedAt: T0 + 1000 };
    const b = { ...first, id: 'a2', startedAt: T0 + 1000 };
    const older = { ...first, id: 'a9', startedAt: T0 };
    expect(previousInChain(new Set([a, b, older]), second)!.id).toBe('a2');
    expect(previousInChain([b, a, older], second)!.id).toBe('a2');
    expect(previousInChain([older, a], second)!.id).toBe('a1');
    expect(previousInChain([{ ...b, threadId: 'another' }, older], second)!.id).toBe('a9');
    expect(previousInChain([], second)).toBeNull();
  });
});

describe('the facts of an exchange', () => {
  it('takes the effort from the body, else from the turn metadata', () => {
    const withEffort = {
      ...first,
      request: { ...first.request, body: { ...(first.request.body as object), reasoning: { effort: 'high' } } },
    };
    expect(exchangeFacts(withEffort).reasoningEffort).toBe('high');
    const fromIdentity = { ...first, identity: { ...first.identity, reasoningEffort: 'low' } };
    expect(exchangeFacts(fromIdentity)).toEqual({ reasoningEffort: 'low', serviceTier: null, spawns: [] });
  });

  it('reads no spawn calls from a non-model exchange', async () => {
    const spawning = await recordFrom(loadFixture('codemode-subagent-v2-2.json'));
    expect(exchangeFacts(spawning).spawns).toHaveLength(1);
    expect(exchangeFacts({ ...spawning, kind: 'other' }).spawns).toEqual([]);
  });
});

describe('the analysis of one exchange', () => {
  it('is of the current version, names the price table’s version, and gives the usage figures', () => {
    const a = analyzeExchange(second, first, { pricesVersion: 'sha256:abc' });
    expect(a.version).toBe(ANALYSIS_VERSION);
    expect(a.pricesVersion).toBe('sha256:abc');
    expect(a.usage).toEqual({
      uncachedInput: second.usage!.inputTokens! - second.usage!.cachedTokens!,
      blendedTokens: second.usage!.inputTokens! - second.usage!.cachedTokens! + second.usage!.outputTokens!,
    });
    expect(analyzeExchange(second, first).pricesVersion).toBeNull();
    expect(a.diff!.previousId).toBe('b-first');
    expect(a.cache.previousId).toBe('b-first');
  });

  it('uses the default thresholds and prices unless told otherwise', () => {
    expect(DEFAULT_ANALYSIS_OPTIONS).toMatchObject({
      missMinTokens: 1024,
      missMinRatio: 0.1,
      cacheTtlMs: 300_000,
      prices: BUILTIN_PRICES,
      pricesVersion: null,
    });
    expect(DEFAULT_ANALYSIS_OPTIONS.contextWindow('gpt-5-codex')).toBeNull();
    expect(analyzeExchange(second, first, { prices: { rows: [] } }).pricing!.status).toBe('unpriced');
  });

  it('prices the model sent when the response named none, and ChatGPT-plan traffic as an API equivalent', () => {
    const a = analyzeExchange({ ...second, model: null, route: { ...second.route, modelSent: 'gpt-5-codex', auth: 'chatgpt' } }, first);
    expect(a.cost).toMatchObject({ model: 'gpt-5-codex', basis: 'api_equivalent' });
    expect(analyzeExchange({ ...second, model: null, route: { ...second.route, modelSent: null } }, first).pricing!.status).toBe(
      'no_model',
    );
    expect(analyzeExchange(second, first).cost!.basis).toBe('api');
  });

  it('takes the service tier of the request body', () => {
    const body = { ...(second.request.body as object), service_tier: 'priority' };
    const a = analyzeExchange({ ...second, request: { ...second.request, body } }, first);
    expect(a.cost!.tier).toBe('priority');
    expect(a.facts.serviceTier).toBe('priority');
  });

  it('has no diff without a previous exchange, and neither diff nor context without a body', () => {
    const alone = analyzeExchange(second, null);
    expect(alone.diff).toBeNull();
    expect(alone.context).not.toBeNull();
    for (const body of [null, 'not json']) {
      const a = analyzeExchange({ ...second, request: { ...second.request, body } }, first);
      expect(a.diff).toBeNull();
      expect(a.context).toBeNull();
    }
    const other = analyzeExchange({ ...second, kind: 'other' }, first);
    expect(other.diff).toBeNull();
    expect(other.context).toBeNull();
  });

  it('looks up the context window of the model Codex named, else of the served model', () => {
    const asked: string[] = [];
    const contextWindow = (m: string) => (asked.push(m), m === 'named-model' ? 1_000_000 : null);
    const named = analyzeExchange({ ...second, identity: { ...second.identity, model: 'named-model' } }, first, { contextWindow });
    expect(named.context!.contextWindow).toBe(1_000_000);
    const served = analyzeExchange({ ...second, identity: { ...second.identity, model: null } }, first, { contextWindow });
    expect(served.context!.contextWindow).toBeNull();
    const none = analyzeExchange(
      { ...second, model: null, identity: { ...second.identity, model: null }, route: { ...second.route, modelSent: null } },
      first,
      { contextWindow },
    );
    expect(none.context!.contextWindow).toBeNull();
    expect(asked).toEqual(['named-model', 'gpt-5-codex']);
    expect(named.context!.reportedInputTokens).toBe(second.usage!.inputTokens);
  });

  it('gives an exchange without usage no reported input in its context', () => {
    expect(analyzeExchange({ ...second, usage: null }, first).context!.reportedInputTokens).toBeNull();
  });
});

describe('the list brief of an analysis', () => {
  it('carries every cache figure and the reason codes', () => {
    const cache: ExchangeAnalysis['cache'] = {
      verdict: 'miss',
      why: 'why',
      whyCode: { code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } },
      hitRate: 0.5,
      previousId: 'p',
      idleMs: 10,
      expectedCachedTokens: 8192,
      miss: true,
      reasons: [
        { code: 'idle_gap', detail: 'd1', detailCodes: null },
        { code: 'tools_changed', detail: 'd2', detailCodes: null },
      ],
      missedTokens: 4096,
      missCostUsd: 0.25,
    };
    expect(cacheBrief({ ...analyzeExchange(second, first), cache })).toEqual({
      verdict: 'miss',
      why: 'why',
      whyCode: { code: 'cacheWhy.miss', params: { cached: 0, expected: 8192, shortfall: 8192 } },
      hitRate: 0.5,
      miss: true,
      reasons: ['idle_gap', 'tools_changed'],
      expectedCachedTokens: 8192,
      missedTokens: 4096,
      missCostUsd: 0.25,
    });
  });
});
