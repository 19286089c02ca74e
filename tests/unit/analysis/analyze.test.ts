import { describe, expect, it } from 'vitest';
import { analyzeExchange, cacheBrief, exchangeFacts, isSameChain, previousInChain } from '../../../companion/analysis/analyze';
import { ExchangeAnalysisSchema } from '../../../companion/protocol/analysis';
import { CacheBriefSchema, ExchangeRecordSchema, type ExchangeRecord } from '../../../companion/protocol/exchange';
import {
  analyseAll,
  httpFixtureFiles,
  loadFixture,
  recordFrom,
  runRecords,
  runsOf,
  UNELIDED_FIXTURES,
  type Fixture,
} from '../../support/records';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

async function turn() {
  return runRecords('fallback-tool-call', runsOf(httpFixtureFiles(UNELIDED_FIXTURES)).get('fallback-tool-call')!);
}

describe('the chain of an exchange', () => {
  it('is the earlier processed model exchanges of the same session and thread', async () => {
    const [first, second] = await turn();
    expect(isSameChain(first, second)).toBe(true);
    expect(isSameChain(second, first)).toBe(false);
    expect(isSameChain(first, first)).toBe(false);
    expect(isSameChain({ ...first, threadId: 'another' }, second)).toBe(false);
    expect(isSameChain({ ...first, sessionId: 'another' }, second)).toBe(false);
    expect(isSameChain({ ...first, usage: null }, second)).toBe(false);
    expect(isSameChain({ ...first, kind: 'other' }, second)).toBe(false);
  });

  it('does not depend on prompt_cache_key, so a key change inside a thread can be named', async () => {
    const [first, second] = await turn();
    const otherKey: ExchangeRecord = { ...first, identity: { ...first.identity, promptCacheKey: 'other' } };
    expect(isSameChain(otherKey, second)).toBe(true);
  });

  it('takes the latest candidate as the previous exchange', async () => {
    const [first, second] = await turn();
    const third = { ...second, id: 'third', startedAt: second.startedAt + 10_000 };
    expect(previousInChain([first, second], third)!.id).toBe(second.id);
    expect(previousInChain([second, first], third)!.id).toBe(second.id);
    expect(previousInChain([first, second], first)).toBeNull();
  });
});

describe('analyzeExchange', () => {
  it('produces an analysis the protocol accepts, inside the record and as the list brief', async () => {
    const [, second] = analyseAll(await turn());
    expect(ExchangeAnalysisSchema.parse(second.analysis)).toEqual(second.analysis);
    expect(ExchangeRecordSchema.parse(second).analysis).toEqual(second.analysis);
    expect(CacheBriefSchema.parse(second.cache)).toEqual(cacheBrief(second.analysis!));
    expect(second.cache!.reasons).toEqual([]);
  });

  it('carries the reason codes in the brief and the details in the record', async () => {
    const [first, second] = await turn();
    const a = analyzeExchange(second, first, { cacheTtlMs: 1000, missMinTokens: 0, missMinRatio: 0 });
    // No shortfall at all: a long idle time alone is not a miss.
    expect(cacheBrief(a).reasons).toEqual([]);
    const cold = cacheBrief(analyzeExchange(first, null));
    expect(cold).toMatchObject({ verdict: 'cold', miss: false, reasons: [], expectedCachedTokens: 0 });
    expect(cold.why).toContain('first request of this thread');
  });

  it('collects the facts roll-ups need: effort, service tier, spawn calls', async () => {
    const fx = loadFixture('codemode-subagent-v2-2.json');
    fx.request!.body.service_tier = 'priority';
    const facts = exchangeFacts(await recordFrom(fx));
    expect(facts).toMatchObject({ reasoningEffort: 'low', serviceTier: 'priority' });
    expect(facts.spawns).toEqual([expect.objectContaining({ callId: 'call_spawn', childAgentName: '/root/greeter' })]);
  });

  it('gives non-model exchanges no cache verdict', async () => {
    const record = { ...(await recordFrom(loadFixture('a-plain-text-1.json'))), kind: 'other' as const };
    expect(analyzeExchange(record, null).cache).toMatchObject({
      verdict: 'not_applicable',
      miss: false,
      reasons: [],
      expectedCachedTokens: null,
    });
  });

  // Its time belongs in `npm run bench`, not here: a wall-clock budget fails on a loaded machine.
  it('analyses a 1 MB request whole: the diff and every token of its context', async () => {
    const previousFx = loadFixture('codemode-tool-call-2.json');
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');
    let n = 0;
    const grow = (fx: Fixture, bytes: number) => {
      while (JSON.stringify(fx.request!.body).length < bytes) {
        n++;
        const text = Array.from({ length: 400 }, (_, i) => `${words[(i * 7 + n) % words.length]}${(i * n) % 9973}`).join(' ');
        fx.request!.body.input.push(
          { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat file${n}.txt` }), call_id: `call_${n}` },
          { type: 'function_call_output', call_id: `call_${n}`, output: text },
        );
      }
    };
    grow(previousFx, 900_000);
    const currentFx: Fixture = structuredClone(previousFx);
    grow(currentFx, 1_000_000);
    const previous = await recordFrom(previousFx, { id: 'p', startedAt: T0 });
    const current = await recordFrom(currentFx, { id: 'c', startedAt: T0 + 5000 });
    expect(JSON.stringify(current.request.body).length).toBeGreaterThanOrEqual(1_000_000);
    const a = analyzeExchange(current, previous);
    expect(a.diff!.prefixPreserved).toBe(true);
    expect(a.context!.totalTokens).toBeGreaterThan(200_000);
  });
});
