import { describe, expect, it } from 'vitest';
import { sessionCacheReport } from '../../../companion/analysis/cache-report';
import { SessionCacheReportSchema } from '../../../companion/protocol/analysis';
import { analyseAll, loadFixture, recordFrom, reportedUsage, withUsage } from '../../support/records';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** A real tool-call turn whose second request the upstream served without cache. */
async function sessionWithMiss() {
  const second = loadFixture('fallback-tool-call-2.json');
  withUsage(second, { input: reportedUsage(second).input_tokens, cached: 0, output: 24 });
  return analyseAll([
    await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: 'a', startedAt: T0 }),
    await recordFrom(second, { id: 'b', startedAt: T0 + 5000 }),
  ]);
}

describe('sessionCacheReport', () => {
  it('lists the hit rate over time and each miss with its reasons', async () => {
    const records = await sessionWithMiss();
    const report = sessionCacheReport(records);
    expect(SessionCacheReportSchema.parse(report)).toEqual(report);
    expect(report.sessionId).toBe(records[0].sessionId);
    expect(report.points.map((p) => [p.id, p.hitRate, p.miss])).toEqual([
      ['a', 0, false],
      ['b', 0, true],
    ]);
    expect(report.misses).toEqual([expect.objectContaining({ id: 'b', reasons: ['unexplained'], missedTokens: 8192 })]);
    expect(report.missCostUsd).toBeCloseTo((8192 * (1.25 - 0.125)) / 1e6, 12);
  });

  it('gives the share of full-price input that came from misses', async () => {
    const records = await sessionWithMiss();
    const report = sessionCacheReport(records);
    const fullPrice = records.reduce((a, r) => a + r.usage!.inputTokens! - r.usage!.cachedTokens!, 0);
    expect(report.fullPriceInputTokens).toBe(fullPrice);
    expect(report.missShare).toBeCloseTo(8192 / fullPrice, 12);
  });

  it('has no misses and an overall hit rate for a session whose cache held', async () => {
    const records = analyseAll([
      await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: 'a', startedAt: T0 }),
      await recordFrom(loadFixture('fallback-tool-call-2.json'), { id: 'b', startedAt: T0 + 5000 }),
    ]);
    const report = sessionCacheReport(records);
    expect(report.misses).toEqual([]);
    expect(report.missedTokens).toBe(0);
    const cached = records.reduce((a, r) => a + r.usage!.cachedTokens!, 0);
    expect(report.hitRate).toBeCloseTo(cached / records.reduce((a, r) => a + r.usage!.inputTokens!, 0), 12);
  });
});
