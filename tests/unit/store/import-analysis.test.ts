/**
 * Imported exchanges get the analysis captured ones get, from the capture's own engine: cost from
 * the price table, a cache verdict against the previous exchange of their thread, the context
 * and the diff; and honest verdicts where the imported record holds nothing to judge.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { readTextFile, rolloutFiles } from '../../../companion/store/import/files';
import { importHistory } from '../../../companion/store/import/import';
import { parseRollout } from '../../../companion/store/import/rollout';
import { Store } from '../../../companion/store/store';
import { toJsonl } from '../../../companion/store/export/jsonl';
import { tempHome } from '../../support/companion';
import { importContext } from '../../support/import';
import { recordOf } from '../../support/records';

const log = createLogger('silent');
const fixture = (name: string) => path.resolve('tests/fixtures/rollouts', name);
const homes: string[] = [];
function open(): { store: Store; home: string } {
  const home = tempHome('codex-devtools-import-analysis-');
  homes.push(home);
  return { store: Store.open({ home, log }), home };
}
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

async function records(store: Store): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  for (const s of store.summaries()) out.push((await store.get(s.id))!);
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

/** gpt-5-codex, standard tier (prices.ts): $1.25 input, $0.125 cached input, $10 output per 1M tokens. */
const gpt5CodexUsd = (input: number, cached: number, output: number) => ((input - cached) * 1.25 + cached * 0.125 + output * 10) / 1e6;

describe('analysis of imported rollouts', () => {
  it('prices every imported exchange from the price table, cached tokens inside input', async () => {
    const { store, home } = open();
    await importHistory(importContext(store, home), { codexHomes: [fixture('subagent-v1')] });
    const all = await records(store);
    expect(all).toHaveLength(4);
    for (const r of all) {
      const u = r.usage!;
      expect(r.model).toBe('gpt-5-codex');
      expect(r.analysis?.costUsd).toBeCloseTo(gpt5CodexUsd(u.inputTokens!, u.cachedTokens!, u.outputTokens!), 12);
      expect(r.costUsd).toBe(r.analysis?.costUsd);
      expect(store.summary(r.id)?.costUsd).toBe(r.analysis?.costUsd);
    }
    // resp_3: 904 uncached + 4,096 cached input, 20 output.
    expect(all[0].costUsd).toBeCloseTo(0.001842, 12);
  });

  it('judges the cache against the previous exchange of the same thread, never another thread', async () => {
    const { store, home } = open();
    await importHistory(importContext(store, home), { codexHomes: [fixture('subagent-v1')] });
    const all = await records(store);
    const root = all.filter((r) => r.agent.role === 'main');
    const [child] = all.filter((r) => r.agent.role === 'subagent');
    expect(root.map((r) => r.analysis?.cache.previousId ?? null)).toEqual([null, root[0].id, root[1].id]);
    expect(child.analysis?.cache.previousId).toBeNull();
    expect(child.analysis?.cache.why).toMatch(/^first request of this thread/);
    // resp_4 read 4,096 where resp_3 left 5,000 + 20 cacheable (4,992 in 128-token blocks from 1,024).
    expect(root[1].analysis?.cache).toMatchObject({ verdict: 'hit', expectedCachedTokens: 4992 });
    expect(store.summary(root[1].id)?.cache).toMatchObject({ verdict: 'hit', expectedCachedTokens: 4992 });
    expect(root[1].analysis?.diff?.previousId).toBe(root[0].id);
    expect(root[1].analysis?.context?.reportedInputTokens).toBe(5200);
  });

  it('names what a rollout cannot tell when a miss has no visible cause', async () => {
    const { store, home } = open();
    await importHistory(importContext(store, home), { codexHomes: [fixture('compaction-local')] });
    const compaction = (await records(store)).find((r) => r.requestKind === 'compaction')!;
    expect(compaction.analysis?.cache.verdict).toBe('miss');
    expect(compaction.analysis?.cache.reasons).toEqual([
      {
        code: 'unexplained',
        detail: expect.stringMatching(/rollout, which holds no tools/),
        detailCodes: [{ code: 'cacheEvidence.fromRollout', params: {} }],
      },
    ]);
  });

  it('takes as previous the latest exchange before the imported one, however many later ones its thread holds', async () => {
    const { store, home } = open();
    const [file] = rolloutFiles(fixture('compaction-local'));
    const parsed = parseRollout(readTextFile(file), { file }).records;
    // The thread's last response and 24 more after it are already stored (say, captured); the
    // import fills in the two before them.
    const last = parsed.at(-1)!;
    await store.append({ ...last, source: 'captured' });
    for (let k = 1; k <= 24; k++)
      await store.append({
        ...last,
        id: `${last.id.slice(0, -2)}${String(k).padStart(2, '0')}`,
        responseId: `later_${k}`,
        startedAt: last.startedAt + k * 1000,
      });
    const report = await importHistory(importContext(store, home), { codexHomes: [fixture('compaction-local')] });
    expect(report).toMatchObject({ added: 2, duplicates: 1 });
    const [first, second] = await records(store);
    expect(second.analysis?.cache.previousId).toBe(first.id);
    expect(first.analysis?.cache.previousId).toBeNull();
  });

  it('judges again an exchange stored after a gap that the import fills: its previous is now the imported one', async () => {
    const { store, home } = open();
    const ctx = importContext(store, home);
    const [file] = rolloutFiles(fixture('compaction-local'));
    const parsed = parseRollout(readTextFile(file), { file }).records;
    // Captured while the two before it were not (capture paused, say): judged as the first of its thread.
    const captured = { ...parsed.at(-1)!, source: 'captured' as const };
    await store.append(captured);
    const alone = (await ctx.analyse(captured))!;
    await store.attachAnalysis(captured.id, alone.analysis, alone.patch);
    expect(alone.analysis.cache.previousId).toBeNull();
    await importHistory(ctx, { codexHomes: [fixture('compaction-local')] });
    const [, second, third] = await records(store);
    expect(third.id).toBe(captured.id);
    expect(third.analysis?.cache.previousId).toBe(second.id);
    expect(store.summary(third.id)?.cache?.expectedCachedTokens).toBe(third.analysis?.cache.expectedCachedTokens);
    expect(third.analysis?.cache.expectedCachedTokens).not.toBe(alone.analysis.cache.expectedCachedTokens);
  });

  it('changes nothing, analysis included, when the same files are imported again', async () => {
    const { store, home } = open();
    const ctx = importContext(store, home);
    await importHistory(ctx, { codexHomes: [fixture('subagent-v1'), fixture('compaction-local')] });
    const before = await records(store);
    const again = await importHistory(importContext(store, home), { codexHomes: [fixture('subagent-v1'), fixture('compaction-local')] });
    expect(again.added).toBe(0);
    expect(await records(store)).toEqual(before);
    expect(before.every((r) => r.analysis !== undefined)).toBe(true);
  });

  it('yields to the event loop between records, so capture in the same thread goes on during an import', async () => {
    const { store, home } = open();
    const order: string[] = [];
    const done = importHistory(importContext(store, home), { codexHomes: [fixture('subagent-v1')] }).then(() => order.push('import done'));
    setImmediate(() => order.push('event loop turned'));
    await done;
    expect(order).toEqual(['event loop turned', 'import done']);
  });
});

describe('rate limits of imported exchanges', () => {
  it('reports the newest reading among the exchanges added, and none when nothing was added', async () => {
    const { store, home } = open();
    const older = await recordOf('d-ratelimit-headers-ok-1.json', { id: '0mx4h3zz000limits001', startedAt: Date.UTC(2026, 10, 30, 9) });
    const newer = await recordOf('d-http429-usage-limit-1.json', { id: '0mx4h3zz000limits002', startedAt: Date.UTC(2026, 10, 30, 10) });
    const at = (r: ExchangeRecord) => ({ ...r, rateLimits: r.rateLimits && { ...r.rateLimits, observedAt: r.startedAt } });
    const file = path.join(home, 'limits.jsonl');
    // Newest first in the file: the report picks by time, not by order.
    fs.writeFileSync(file, toJsonl([at(newer), at(older)]));
    const report = await importHistory(importContext(store, home), { files: [file] });
    expect(report.rateLimits?.observedAt).toBe(Date.UTC(2026, 10, 30, 10));
    expect(report.rateLimits?.codex[0].primary?.usedPercent).toBe(100);
    expect((await importHistory(importContext(store, home), { files: [file] })).rateLimits).toBeNull();
  });
});

describe('analysis of imported JSONL', () => {
  it('judges an exchange without usage not applicable and leaves its cost unknown, never $0', async () => {
    const { store, home } = open();
    const refused = await recordOf('d-http429-usage-limit-1.json', { id: '0mx4h3zz000refused01' });
    const file = path.join(home, 'refused.jsonl');
    fs.writeFileSync(file, toJsonl([{ ...refused, analysis: undefined, cache: null, costUsd: null }]));
    await importHistory(importContext(store, home), { files: [file] });
    const r = (await store.get(refused.id))!;
    expect(r.httpStatus).toBe(429);
    expect(r.analysis?.cache.verdict).toBe('not_applicable');
    expect(r.analysis?.cache.why).toMatch(/HTTP 429/);
    expect(r.analysis?.costUsd).toBeNull();
    expect(store.summary(r.id)?.costUsd).toBeNull();
  });

  it('keeps the analysis an exported record carries', async () => {
    const { store, home } = open();
    const exported = await recordOf('a-plain-text-1.json', { id: '0mx4h3zz000exported1' });
    const analysis = { ...(await analysed(exported)), costUsd: 123 };
    const file = path.join(home, 'exported.jsonl');
    fs.writeFileSync(file, toJsonl([{ ...exported, analysis }]));
    await importHistory(importContext(store, home), { files: [file] });
    expect((await store.get(exported.id))?.analysis?.costUsd).toBe(123);
  });
});

async function analysed(r: ExchangeRecord) {
  const { analyzeExchange } = await import('../../../companion/analysis/analyze');
  return analyzeExchange(r, null);
}
