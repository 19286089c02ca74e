import { describe, expect, it } from 'vitest';
import { rollupUsage, sumRollups, usageByTurn, usageReport } from '../../../companion/analysis/usage-rollup';
import { UsageReportSchema } from '../../../companion/protocol/analysis';
import {
  analyseAll,
  httpFixtureFiles,
  loadFixture,
  OLD_FIXTURES,
  recordFrom,
  runRecords,
  runsOf,
  UNELIDED_FIXTURES,
  type Fixture,
} from '../../support/records';

const oldRuns = runsOf(httpFixtureFiles(OLD_FIXTURES));
const newRuns = runsOf(httpFixtureFiles(UNELIDED_FIXTURES));
const run = async (name: string) => analyseAll(await runRecords(name, (oldRuns.get(name) ?? newRuns.get(name))!));

/** Edits the turn metadata Codex sent (header and client_metadata copy). */
function editMetadata(fx: Fixture, edit: (meta: Record<string, unknown>) => void): Fixture {
  const meta = JSON.parse(fx.request!.headers['x-codex-turn-metadata']);
  edit(meta);
  fx.request!.headers['x-codex-turn-metadata'] = JSON.stringify(meta);
  if (fx.request!.body.client_metadata) fx.request!.body.client_metadata['x-codex-turn-metadata'] = JSON.stringify(meta);
  return fx;
}

describe('usage totals', () => {
  it('gives the priced cost subtotal and counts unpriced tokens apart, never as $0', async () => {
    const priced = await run('fallback-tool-call');
    const unpriced = await run('codemode-tool-call');
    const total = rollupUsage([...priced, ...unpriced]);
    expect(total.costUsd).toBeCloseTo(
      priced.reduce((a, r) => a + r.costUsd!, 0),
      12,
    );
    expect(total.costUsd).toBeGreaterThan(0);
    expect(total.unpricedExchanges).toBe(2);
    expect(total.unpricedTokens).toBe(unpriced.reduce((a, r) => a + r.usage!.inputTokens! + r.usage!.outputTokens!, 0));
  });

  it('says whether a total’s cost is complete, a lower bound, or unknown, and gives its cached share', async () => {
    const priced = await run('fallback-tool-call');
    const unpriced = await run('codemode-tool-call');
    expect(rollupUsage(priced)).toMatchObject({ costStatus: 'priced' });
    expect(rollupUsage([...priced, ...unpriced])).toMatchObject({ costStatus: 'partial' });
    expect(rollupUsage(unpriced)).toMatchObject({ costStatus: 'unknown' });
    expect(rollupUsage([])).toMatchObject({ costStatus: 'priced', costUsd: 0, cachedShare: null });
    const all = rollupUsage([...priced, ...unpriced]);
    expect(all.cachedShare).toBeCloseTo(all.cachedTokens / all.inputTokens, 12);
    // Sums of roll-ups (a thread and its sub-agents) derive the same figures from the summed totals.
    const summed = sumRollups([rollupUsage(priced), rollupUsage(unpriced)]);
    expect(summed).toMatchObject({ costStatus: 'partial', cachedShare: all.cachedShare });
  });

  it('keeps ChatGPT-plan traffic’s cost apart as an API-equivalent estimate', async () => {
    const records = await run('h-chatgpt-custom-provider');
    const total = rollupUsage(records);
    expect(records[0].analysis!.cost!.basis).toBe('api_equivalent');
    expect(total.apiEquivalentUsd).toBeCloseTo(total.costUsd, 12);
    expect(total.apiEquivalentUsd).toBeGreaterThan(0);
  });

  it('explains all traffic beyond Codex’s count: sub-agents, prewarm, remote compaction, unfinished responses', async () => {
    const subagents = await run('e-subagent-v1');
    const compaction = loadFixture('fallback-compaction-local-2.json');
    editMetadata(compaction, (m) => ((m.compaction as Record<string, unknown>).implementation = 'responses_compaction_v2'));
    const remote = await recordFrom(compaction, { id: 'remote' });
    const prewarm = await recordFrom(
      editMetadata(loadFixture('a-plain-text-1.json'), (m) => (m.request_kind = 'prewarm')),
      { id: 'prewarm' },
    );
    const incomplete = loadFixture('a-plain-text-1.json');
    incomplete.response_sent_by_fake_upstream!.sse_events!.at(-1)!.type = 'response.failed';
    const failed = await recordFrom(incomplete, { id: 'failed' });
    const total = rollupUsage([...subagents, remote, prewarm, failed]);
    expect(total.uncounted).toEqual({
      subagentTokens: 916,
      prewarmTokens: 916,
      remoteCompactionTokens: 250_030,
      unfinishedTokens: 916,
      otherTokens: 0,
    });
    expect(total.codexTokensUsed).toBe(2996);
    expect(total.allTrafficTokens).toBe(2996 + 916 + 916 + 250_030 + 916);
  });

  it('leaves non-model exchanges out of the token totals', async () => {
    const [record] = await run('a-plain-text');
    expect(rollupUsage([{ ...record, kind: 'other' }]).exchanges).toBe(0);
  });
});

describe('usageReport', () => {
  it('groups by session, day and model, each grouping summing to the total', async () => {
    const records = [...(await run('e-subagent-v1')), ...(await run('codemode-tool-call')), ...(await run('c-reasoning'))];
    const report = usageReport(records);
    expect(UsageReportSchema.parse(report)).toEqual(report);
    for (const groups of [report.bySession, report.byDay, report.byModel]) {
      expect(groups.reduce((a, g) => a + g.allTrafficTokens, 0)).toBe(report.total.allTrafficTokens);
      expect(groups.reduce((a, g) => a + g.codexTokensUsed, 0)).toBe(report.total.codexTokensUsed);
      expect(groups.reduce((a, g) => a + g.costUsd, 0)).toBeCloseTo(report.total.costUsd, 12);
    }
    expect(report.bySession).toHaveLength(3);
    expect(report.byModel.map((m) => m.model).sort()).toEqual(['gpt-5-codex', 'gpt-6.1-sol']);
  });

  it('cuts days in the time zone asked for', async () => {
    const late = await recordFrom(loadFixture('a-plain-text-1.json'), { id: 'late', startedAt: Date.UTC(2026, 10, 29, 23, 30) });
    const early = await recordFrom(loadFixture('a-plain-text-1.json'), { id: 'early', startedAt: Date.UTC(2026, 10, 30, 0, 30) });
    expect(usageReport([late, early]).byDay.map((d) => d.day)).toEqual(['2026-11-29', '2026-11-30']);
    expect(usageReport([late, early], { timeZone: 'America/New_York' }).byDay.map((d) => d.day)).toEqual(['2026-11-29']);
  });
});

describe('usageByTurn', () => {
  it('gives each turn its tokens and cost, the sub-agent’s turn apart from its parent’s', async () => {
    const records = await run('e-subagent-v1');
    const turns = usageByTurn(records);
    expect(turns.map((t) => [t.threadId, t.exchanges])).toEqual([
      [records[0].threadId, 3],
      [records[2].threadId, 1],
    ]);
    expect(turns.reduce((a, t) => a + t.costUsd, 0)).toBeCloseTo(rollupUsage(records).costUsd, 12);
    expect(turns[0].codexTokensUsed).toBe(2996);
  });
});
