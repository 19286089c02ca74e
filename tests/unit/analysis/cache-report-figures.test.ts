import { beforeAll, describe, expect, it } from 'vitest';
import { sessionCacheReport } from '../../../companion/analysis/cache-report';
import type { ExchangeSummary } from '../../../companion/protocol/exchange';
import type { Usage } from '../../../companion/protocol/usage';
import { recordOf } from '../../support/records';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A real captured exchange (a-plain-text-1), to be varied one field at a time. */
let base: ExchangeSummary;
beforeAll(async () => {
  base = await recordOf('a-plain-text-1.json');
});

const usage = (inputTokens: number | null, cachedTokens: number | null): Usage => ({
  inputTokens,
  cachedTokens,
  cacheWriteTokens: null,
  outputTokens: 10,
  reasoningTokens: null,
  totalTokens: null,
});

type Brief = NonNullable<ExchangeSummary['cache']>;
const brief = (b: Partial<Brief>): Brief => ({
  verdict: 'hit',
  why: null,
  whyCode: null,
  hitRate: null,
  miss: false,
  reasons: [],
  expectedCachedTokens: null,
  missedTokens: null,
  missCostUsd: null,
  ...b,
});

const summary = (id: string, startedAt: number, more: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  ...base,
  id,
  startedAt,
  sessionId: 'session-1',
  threadId: 'thread-1',
  ...more,
});

describe('a session’s cache report over its summaries', () => {
  it('orders points by start time and leaves non-model exchanges out', () => {
    const report = sessionCacheReport([
      summary('late', T0 + 2000, { usage: usage(2000, 1000) }),
      summary('other', T0 + 1000, { kind: 'other', usage: usage(9000, 0), sessionId: 'session-2' }),
      summary('early', T0, { usage: usage(1000, 0) }),
    ]);
    expect(report.points.map((p) => p.id)).toEqual(['early', 'late']);
    expect(report.sessionId).toBe('session-1');
    expect(report.hitRate).toBeCloseTo(1000 / 3000, 12);
    expect(report.fullPriceInputTokens).toBe(2000);
  });

  it('names no session when the summaries span several, or none', () => {
    const two = [summary('a', T0, { usage: usage(1000, 0) }), summary('b', T0 + 1, { usage: usage(1000, 0), sessionId: 'session-2' })];
    expect(sessionCacheReport(two).sessionId).toBeNull();
    expect(sessionCacheReport([]).sessionId).toBeNull();
  });

  it('gives an empty session no hit rate, no miss share and nothing missed', () => {
    expect(sessionCacheReport([])).toEqual({
      sessionId: null,
      points: [],
      misses: [],
      hitRate: null,
      fullPriceInputTokens: 0,
      missedTokens: 0,
      missShare: null,
      missCostUsd: 0,
    });
  });

  it('leaves out of the hit rate a response without a cache figure, but counts its input at full price', () => {
    const report = sessionCacheReport([
      summary('a', T0, { usage: usage(1000, 800) }),
      summary('b', T0 + 1, { usage: usage(3000, null), cache: brief({ hitRate: null }) }),
    ]);
    expect(report.hitRate).toBe(0.8);
    expect(report.fullPriceInputTokens).toBe(200 + 3000);
    expect(report.points.map((p) => [p.id, p.hitRate, p.miss])).toEqual([
      ['a', null, false],
      ['b', null, false],
    ]);
  });

  it('has an unknown hit rate when no response reported a cache figure, or all input was 0', () => {
    expect(sessionCacheReport([summary('a', T0, { usage: usage(3000, null) })]).hitRate).toBeNull();
    expect(sessionCacheReport([summary('a', T0, { usage: usage(0, 0) })]).hitRate).toBeNull();
  });

  it('leaves a cache figure without its input figure out of the hit rate', () => {
    const report = sessionCacheReport([summary('a', T0, { usage: usage(null, 500) }), summary('b', T0 + 1, { usage: usage(1000, 0) })]);
    expect(report.hitRate).toBe(0);
    expect(report.points.map((p) => p.id)).toEqual(['b']);
  });

  it('puts no point for a response without usage or without an input figure', () => {
    const report = sessionCacheReport([
      summary('none', T0, { usage: null, cache: brief({ miss: true, missedTokens: 50 }) }),
      summary('no-input', T0 + 1, { usage: usage(null, 0), cache: brief({ miss: true, missedTokens: 50 }) }),
      summary('ok', T0 + 2, { usage: usage(1000, 0) }),
    ]);
    expect(report.points.map((p) => p.id)).toEqual(['ok']);
    expect(report.misses).toEqual([]);
    expect(report.missedTokens).toBe(0);
    expect(report.fullPriceInputTokens).toBe(1000);
  });

  it('takes each point’s hit rate and miss from its cache brief', () => {
    const report = sessionCacheReport([
      summary('a', T0, { usage: usage(2000, 1500), cache: brief({ hitRate: 0.75 }), threadId: 'thread-2' }),
    ]);
    expect(report.points).toEqual([{ id: 'a', startedAt: T0, threadId: 'thread-2', hitRate: 0.75, miss: false }]);
  });

  it('lists each miss with its known reasons, and sums what misses cost', () => {
    const report = sessionCacheReport([
      summary('hit', T0, { usage: usage(4000, 3000), cache: brief({ hitRate: 0.75 }) }),
      summary('miss-1', T0 + 1, {
        usage: usage(5000, 0),
        cache: brief({
          verdict: 'miss',
          hitRate: 0,
          miss: true,
          reasons: ['idle_gap', 'not_a_code'],
          missedTokens: 3000,
          missCostUsd: 0.003,
        }),
      }),
      summary('miss-2', T0 + 2, {
        usage: usage(6000, 1000),
        threadId: 'thread-2',
        cache: brief({ verdict: 'miss', hitRate: 1 / 6, miss: true, reasons: ['tools_changed'], missedTokens: null, missCostUsd: null }),
      }),
    ]);
    expect(report.misses).toEqual([
      { id: 'miss-1', startedAt: T0 + 1, threadId: 'thread-1', reasons: ['idle_gap'], missedTokens: 3000, missCostUsd: 0.003 },
      { id: 'miss-2', startedAt: T0 + 2, threadId: 'thread-2', reasons: ['tools_changed'], missedTokens: null, missCostUsd: null },
    ]);
    expect(report.points.map((p) => p.miss)).toEqual([false, true, true]);
    expect(report.missedTokens).toBe(3000);
    expect(report.missCostUsd).toBe(0.003);
    expect(report.fullPriceInputTokens).toBe(1000 + 5000 + 5000);
    expect(report.missShare).toBe(3000 / 11000);
    expect(report.hitRate).toBe(4000 / 15000);
  });

  it('has no miss share when no input was billed at full price', () => {
    const report = sessionCacheReport([summary('a', T0, { usage: usage(2000, 2000) })]);
    expect(report.fullPriceInputTokens).toBe(0);
    expect(report.missShare).toBeNull();
    expect(report.hitRate).toBe(1);
  });
});
