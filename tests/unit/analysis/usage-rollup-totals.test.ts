import { beforeAll, describe, expect, it } from 'vitest';
import {
  addSummary,
  emptyRollup,
  rollupUsage,
  sumRollups,
  usageByThread,
  usageByTurn,
  usageReport,
} from '../../../companion/analysis/usage-rollup';
import type { ExchangeSummary } from '../../../companion/protocol/exchange';
import type { Usage } from '../../../companion/protocol/usage';
import { recordOf } from '../../support/records';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A real captured exchange (a-plain-text-1: 5,000 input, 4,096 cached, 12 output), varied one field at a time. */
let base: ExchangeSummary;
beforeAll(async () => {
  base = await recordOf('a-plain-text-1.json');
});

const usage = (u: Partial<Usage>): Usage => ({
  inputTokens: 5000,
  cachedTokens: 4096,
  cacheWriteTokens: null,
  outputTokens: 12,
  reasoningTokens: null,
  totalTokens: null,
  ...u,
});

let n = 0;
const summary = (more: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  ...base,
  id: `s${n++}`,
  startedAt: T0,
  sessionId: 'session-1',
  threadId: 'thread-1',
  turnId: 'turn-1',
  usage: usage({}),
  codexCounted: true,
  costUsd: 0.001,
  ...more,
});

describe('one exchange’s share of the totals', () => {
  it('adds each reported part to its own sum, and the blended figure to Codex’s count', () => {
    const r = rollupUsage([summary({ usage: usage({ cacheWriteTokens: 500, reasoningTokens: 7, totalTokens: 5012 }), costUsd: 0.002 })]);
    expect(r).toEqual({
      ...emptyRollup(),
      codexTokensUsed: 916,
      inputTokens: 5000,
      cachedTokens: 4096,
      cacheWriteTokens: 500,
      outputTokens: 12,
      reasoningTokens: 7,
      totalTokens: 5012,
      exchanges: 1,
      exchangesWithUsage: 1,
      allTrafficTokens: 916,
      costUsd: 0.002,
      apiEquivalentUsd: 0,
      cachedShare: 4096 / 5000,
      costStatus: 'priced',
    });
  });

  it('counts missing parts as none, and a missing total as input plus output', () => {
    const r = rollupUsage([summary({ usage: usage({ cachedTokens: null }) })]);
    expect(r).toMatchObject({ cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, totalTokens: 5012, codexTokensUsed: 5012 });
    expect(r.cachedShare).toBe(0);
  });

  it('takes a reported total as reported', () => {
    expect(rollupUsage([summary({ usage: usage({ totalTokens: 6000 }) })]).totalTokens).toBe(6000);
  });

  it('counts an exchange with unknown input or output as unknown, adding no tokens and no cost', () => {
    const r = rollupUsage([
      summary({ usage: usage({ outputTokens: null }) }),
      summary({ usage: usage({ inputTokens: null }) }),
      summary({ usage: null }),
    ]);
    expect(r).toEqual({ ...emptyRollup(), exchanges: 3, unknownUsageExchanges: 3, costStatus: 'unknown' });
  });

  it('keeps ChatGPT-plan cost as an API-equivalent estimate inside the cost', () => {
    const r = rollupUsage([
      summary({ route: { ...base.route, auth: 'chatgpt' }, costUsd: 0.25 }),
      summary({ route: { ...base.route, auth: 'apikey' }, costUsd: 0.5 }),
    ]);
    expect(r.costUsd).toBe(0.75);
    expect(r.apiEquivalentUsd).toBe(0.25);
  });

  it('counts the billed tokens of an unpriced exchange, cached input and reasoning included once', () => {
    const r = rollupUsage([summary({ usage: usage({ reasoningTokens: 10 }), costUsd: null }), summary({ costUsd: 0.001 })]);
    expect(r).toMatchObject({ unpricedTokens: 5012, unpricedExchanges: 1, costUsd: 0.001, costStatus: 'partial' });
  });

  it('never calls 0 input and 0 output tokens unpriced, but does 0 input with output', () => {
    const zero = rollupUsage([summary({ usage: usage({ inputTokens: 0, cachedTokens: 0, outputTokens: 0 }), costUsd: null })]);
    expect(zero).toMatchObject({ unpricedTokens: 0, unpricedExchanges: 0, exchangesWithUsage: 1, costStatus: 'priced', cachedShare: null });
    const output = rollupUsage([summary({ usage: usage({ inputTokens: 0, cachedTokens: 0, outputTokens: 5 }), costUsd: null })]);
    expect(output).toMatchObject({ unpricedTokens: 5, unpricedExchanges: 1, costStatus: 'unknown' });
    const input = rollupUsage([summary({ usage: usage({ inputTokens: 5, cachedTokens: 0, outputTokens: 0 }), costUsd: null })]);
    expect(input).toMatchObject({ unpricedTokens: 5, unpricedExchanges: 1, costStatus: 'unknown' });
  });

  it('caps the cached share at 100 % when an upstream reports more cached than input', () => {
    expect(rollupUsage([summary({ usage: usage({ inputTokens: 1000, cachedTokens: 1500 }) })]).cachedShare).toBe(1);
  });

  it('leaves non-model exchanges out entirely', () => {
    expect(rollupUsage([summary({ kind: 'other' })])).toEqual(emptyRollup());
  });

  it('keeps the derived figures current as summaries are added one by one', () => {
    const r = emptyRollup();
    addSummary(r, summary({ usage: usage({ inputTokens: 1000, cachedTokens: 500 }) }));
    expect(r).toMatchObject({ cachedShare: 0.5, costStatus: 'priced' });
    addSummary(r, summary({ usage: usage({ inputTokens: 1000, cachedTokens: 0 }), costUsd: null }));
    expect(r).toMatchObject({ cachedShare: 0.25, costStatus: 'partial' });
  });
});

describe('why Codex does not count an exchange', () => {
  const bucketOf = (more: Partial<ExchangeSummary>) => {
    const r = rollupUsage([summary({ codexCounted: false, requestKind: 'turn', status: 'completed', ...more })]);
    expect(r.codexTokensUsed).toBe(0);
    expect(r.allTrafficTokens).toBe(916);
    return Object.entries(r.uncounted)
      .filter(([, v]) => v > 0)
      .map(([k, v]) => `${k}=${v}`);
  };

  it('puts a sub-agent first, whatever else it is', () => {
    const subagent = { ...base.agent, role: 'subagent' } as const;
    expect(bucketOf({ agent: subagent, requestKind: 'prewarm', status: 'failed' })).toEqual(['subagentTokens=916']);
  });

  it('then prewarm, even unfinished', () => {
    expect(bucketOf({ requestKind: 'prewarm', status: 'failed' })).toEqual(['prewarmTokens=916']);
  });

  it('then an unfinished response, even a compaction', () => {
    for (const status of ['streaming', 'failed', 'aborted', 'upstream_error'] as const)
      expect(bucketOf({ requestKind: 'compaction', status })).toEqual(['unfinishedTokens=916']);
  });

  it('then a finished compaction, which is a remote one', () => {
    expect(bucketOf({ requestKind: 'compaction', status: 'completed' })).toEqual(['remoteCompactionTokens=916']);
    expect(bucketOf({ requestKind: 'compaction', status: 'incomplete' })).toEqual(['remoteCompactionTokens=916']);
  });

  it('else other, for a finished root turn Codex did not count', () => {
    expect(bucketOf({ requestKind: 'turn', status: 'incomplete' })).toEqual(['otherTokens=916']);
    expect(bucketOf({ requestKind: 'unknown', status: 'completed' })).toEqual(['otherTokens=916']);
  });
});

describe('sums of roll-ups', () => {
  it('adds every count and every uncounted bucket, and derives the shares from the sums', () => {
    const a = rollupUsage([summary({ usage: usage({ inputTokens: 1000, cachedTokens: 1000, outputTokens: 0 }), costUsd: 0.01 })]);
    const b = rollupUsage([
      summary({
        usage: usage({ inputTokens: 3000, cachedTokens: 0, outputTokens: 10 }),
        costUsd: null,
        codexCounted: false,
        requestKind: 'prewarm',
      }),
      summary({ usage: null }),
    ]);
    const sum = sumRollups([a, b]);
    expect(sum).toEqual({
      ...emptyRollup(),
      codexTokensUsed: 0,
      inputTokens: 4000,
      cachedTokens: 1000,
      outputTokens: 10,
      totalTokens: 4010,
      exchanges: 3,
      exchangesWithUsage: 2,
      allTrafficTokens: 3010,
      uncounted: { ...emptyRollup().uncounted, prewarmTokens: 3010 },
      costUsd: 0.01,
      unpricedTokens: 3010,
      unpricedExchanges: 1,
      unknownUsageExchanges: 1,
      cachedShare: 0.25,
      costStatus: 'partial',
    });
  });

  it('is the empty roll-up over nothing', () => {
    expect(sumRollups([])).toEqual(emptyRollup());
  });
});

describe('totals by group', () => {
  it('names the time zone it cut days in, UTC unless asked, and orders days', () => {
    const day = (d: number) => summary({ startedAt: Date.UTC(2026, 10, d, 12) });
    const report = usageReport([day(30), day(28), { ...day(29), kind: 'other' }, day(29)]);
    expect(report.timeZone).toBe('UTC');
    expect(report.byDay.map((d) => [d.day, d.exchanges])).toEqual([
      ['2026-11-28', 1],
      ['2026-11-29', 1],
      ['2026-11-30', 1],
    ]);
    expect(usageReport([], { timeZone: 'Asia/Tokyo' }).timeZone).toBe('Asia/Tokyo');
  });

  it('groups models by their normalised name, and exchanges without a model apart', () => {
    const report = usageReport([
      summary({ model: 'gpt-5-codex-2025-09-15' }),
      summary({ model: 'GPT-5-Codex' }),
      summary({ model: null }),
      summary({ model: 'gpt-6-sol', kind: 'other' }),
    ]);
    expect(report.byModel.map((m) => [m.model, m.exchanges])).toEqual([
      ['gpt-5-codex', 2],
      [null, 1],
    ]);
    expect(report.bySession.map((s) => [s.sessionId, s.exchanges])).toEqual([['session-1', 3]]);
    expect(report.total.exchanges).toBe(3);
  });

  it('gives each thread of each session its own totals, leaving non-model exchanges out', () => {
    const threads = usageByThread([
      summary({ threadId: 't1' }),
      summary({ threadId: 't2' }),
      summary({ threadId: 't1', sessionId: 'session-2' }),
      summary({ threadId: 't1' }),
      summary({ threadId: 't3', kind: 'other' }),
    ]);
    expect(threads.map((t) => [t.sessionId, t.threadId, t.exchanges, t.codexTokensUsed])).toEqual([
      ['session-1', 't1', 2, 1832],
      ['session-1', 't2', 1, 916],
      ['session-2', 't1', 1, 916],
    ]);
  });

  it('orders turns by their first model exchange and dates each turn from it', () => {
    const turns = usageByTurn([
      summary({ turnId: 'b', startedAt: T0 + 3000 }),
      summary({ turnId: 'a', startedAt: T0 + 2000 }),
      summary({ turnId: 'b', startedAt: T0 + 1000 }),
      summary({ turnId: 'a', startedAt: T0 + 500, kind: 'other' }),
      summary({ turnId: 'b', startedAt: T0 + 4000 }),
      summary({ turnId: 'c', startedAt: T0, kind: 'other' }),
    ]);
    expect(turns.map((t) => [t.turnId, t.startedAt, t.exchanges])).toEqual([
      ['b', T0 + 1000, 3],
      ['a', T0 + 2000, 1],
    ]);
    expect(turns[0]).toMatchObject({ sessionId: 'session-1', threadId: 'thread-1' });
  });

  it('orders turns by start time, not by the order their summaries arrive in', () => {
    const turns = usageByTurn([
      summary({ turnId: 'late', startedAt: T0 + 2000 }),
      summary({ turnId: 'early', startedAt: T0 + 1000 }),
      summary({ turnId: 'middle', startedAt: T0 + 1500 }),
    ]);
    expect(turns.map((t) => t.turnId)).toEqual(['early', 'middle', 'late']);
  });

  it('keeps turns of the same id in different threads apart', () => {
    const turns = usageByTurn([summary({ threadId: 't1', turnId: 'x' }), summary({ threadId: 't2', turnId: 'x', startedAt: T0 + 1 })]);
    expect(turns.map((t) => [t.threadId, t.exchanges])).toEqual([
      ['t1', 1],
      ['t2', 1],
    ]);
  });
});
