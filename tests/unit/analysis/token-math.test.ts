import { describe, expect, it } from 'vitest';
import { blendedTokens, cacheableTokens, hitRate, uncachedInput } from '../../../companion/analysis/token-math';
import { rollupUsage } from '../../../companion/analysis/usage-rollup';
import { httpFixtureFiles, loadFixture, OLD_FIXTURES, runRecords, runsOf, UNELIDED_FIXTURES } from '../../support/records';

const files = [...httpFixtureFiles(OLD_FIXTURES), ...httpFixtureFiles(UNELIDED_FIXTURES)];

/** `tokens used` that `codex exec` printed for each captured run (fixture README, codex-protocol.md §8.1). */
const PRINTED: Record<string, number> = {
  'a-plain-text': 916,
  'b-tool-call': 1956,
  'c-reasoning': 2120,
  'e-compaction-local': 300_996,
  'e-subagent-v1': 2996,
};

describe('token math on every captured request', () => {
  it.each(files.map((f) => [f.split('/').slice(-2).join('/'), f]))('keeps every part within its whole (%s)', async (_n, file) => {
    const [record] = await runRecords('invariant', [file]);
    const u = record.usage;
    if (!u) return expect(record.status).not.toBe('completed');
    expect(u.cachedTokens ?? 0).toBeLessThanOrEqual(u.inputTokens!);
    expect((u.cachedTokens ?? 0) + (u.cacheWriteTokens ?? 0)).toBeLessThanOrEqual(u.inputTokens!);
    expect(u.reasoningTokens ?? 0).toBeLessThanOrEqual(u.outputTokens!);
    expect(u.totalTokens).toBe(u.inputTokens! + u.outputTokens!);
    // The blended figure never adds cached input or reasoning to the wholes that contain them.
    expect(blendedTokens(u)).toBe(u.inputTokens! - (u.cachedTokens ?? 0) + u.outputTokens!);
    expect(uncachedInput(u)! + (u.cachedTokens ?? 0)).toBe(u.inputTokens);
  });

  it.each([...runsOf(files)].map(([run, list]) => [run, list]))(
    'totals equal the sum of their parts over a run (%s)',
    async (run, list) => {
      const records = await runRecords(run, list);
      const total = rollupUsage(records);
      const each = records.map((r) => rollupUsage([r]));
      for (const k of [
        'codexTokensUsed',
        'allTrafficTokens',
        'inputTokens',
        'cachedTokens',
        'outputTokens',
        'reasoningTokens',
        'totalTokens',
      ] as const)
        expect(total[k]).toBe(each.reduce((a, r) => a + r[k], 0));
      const uncounted = Object.values(total.uncounted).reduce((a, b) => a + b, 0);
      expect(total.codexTokensUsed + uncounted).toBe(total.allTrafficTokens);
      expect(total.exchangesWithUsage + total.unknownUsageExchanges).toBe(total.exchanges);
      expect(total.totalTokens).toBe(total.inputTokens + total.outputTokens);
    },
  );

  it.each(Object.entries(PRINTED))('reproduces the tokens used Codex printed for %s', async (run, printed) => {
    const list = runsOf(httpFixtureFiles(OLD_FIXTURES)).get(run)!;
    expect(rollupUsage(await runRecords(run, list)).codexTokensUsed).toBe(printed);
  });

  it.each([...runsOf(httpFixtureFiles(UNELIDED_FIXTURES))].map(([run, list]) => [run, list]))(
    'reproduces the tokens used Codex printed for its own capture %s',
    async (run, list) => {
      const printed = loadFixture(list[0]).tokens_used_printed as number;
      expect(rollupUsage(await runRecords(run, list)).codexTokensUsed).toBe(printed);
    },
  );

  it('counts an exchange without usage as unknown, adding nothing', async () => {
    const records = await runRecords('d-http429-usage-limit', runsOf(httpFixtureFiles(OLD_FIXTURES)).get('d-http429-usage-limit')!);
    expect(rollupUsage(records)).toMatchObject({
      exchanges: 1,
      exchangesWithUsage: 0,
      unknownUsageExchanges: 1,
      allTrafficTokens: 0,
      inputTokens: 0,
    });
  });
});

describe('token helpers', () => {
  const usage = { inputTokens: 5000, cachedTokens: 4096, cacheWriteTokens: null, outputTokens: 12, reasoningTokens: 0, totalTokens: 5012 };

  it('computes Codex’s blended total as uncached input plus output', () => {
    expect(blendedTokens(usage)).toBe(916);
  });

  it('treats a missing cache field as nothing cached for totals, but as an unknown hit rate', () => {
    const noCache = { ...usage, cachedTokens: null };
    expect(blendedTokens(noCache)).toBe(5012);
    expect(hitRate(noCache)).toBeNull();
    expect(hitRate(usage)).toBeCloseTo(4096 / 5000, 12);
  });

  it('leaves unknown input or output unknown', () => {
    expect(blendedTokens({ ...usage, outputTokens: null })).toBeNull();
    expect(uncachedInput(null)).toBeNull();
    expect(hitRate({ ...usage, inputTokens: 0, cachedTokens: 0 })).toBeNull();
  });

  it('rounds a cacheable prefix down to 128-token blocks from 1,024 tokens', () => {
    expect([cacheableTokens(1023), cacheableTokens(1024), cacheableTokens(1151), cacheableTokens(8259)]).toEqual([0, 1024, 1024, 8192]);
  });
});

describe('token helpers on partial usage', () => {
  const usage = { inputTokens: 5000, cachedTokens: 4096, cacheWriteTokens: null, outputTokens: 12, reasoningTokens: 0, totalTokens: 5012 };

  it('leaves uncached input unknown when input is unknown, even with a cache figure', () => {
    expect(uncachedInput({ ...usage, inputTokens: null })).toBeNull();
    expect(uncachedInput(usage)).toBe(904);
    expect(uncachedInput({ ...usage, cachedTokens: null })).toBe(5000);
  });

  it('never gives negative uncached input when the cache figure exceeds the input', () => {
    expect(uncachedInput({ ...usage, inputTokens: 100, cachedTokens: 4096 })).toBe(0);
    expect(blendedTokens({ ...usage, inputTokens: 100, cachedTokens: 4096 })).toBe(12);
  });

  it('leaves the blended total unknown when input is unknown, though output is known', () => {
    expect(blendedTokens({ ...usage, inputTokens: null })).toBeNull();
    expect(blendedTokens(null)).toBeNull();
  });

  it('leaves the hit rate unknown without usage or input, and caps it at 100 %', () => {
    expect(hitRate(null)).toBeNull();
    expect(hitRate({ ...usage, inputTokens: null })).toBeNull();
    expect(hitRate({ ...usage, inputTokens: 1000, cachedTokens: 1200 })).toBe(1);
    expect(hitRate({ ...usage, inputTokens: 4096, cachedTokens: 4096 })).toBe(1);
    expect(hitRate({ ...usage, cachedTokens: 0 })).toBe(0);
    expect(hitRate({ ...usage, inputTokens: 1000, cachedTokens: 250 })).toBe(0.25);
  });

  it('caches nothing below 1,024 tokens and whole 128-token blocks above', () => {
    expect(cacheableTokens(0)).toBe(0);
    expect(cacheableTokens(1025)).toBe(1024);
    expect(cacheableTokens(1152)).toBe(1152);
    expect(cacheableTokens(1279)).toBe(1152);
  });
});
