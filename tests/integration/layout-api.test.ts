import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLayout } from '../../companion/analysis/layout';
import { ExchangeRecordSchema } from '../../companion/protocol';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { loadFixture, recordFrom } from '../support/records';

describe('the request layout over the API', () => {
  let c: TestCompanion;
  const get = async (path: string) => {
    const res = await rawRequest(`${c.url}/api${path}`, { headers: { authorization: `Bearer ${c.token()}` } });
    return { status: res.status, body: JSON.parse(res.body.toString()) };
  };

  beforeAll(async () => {
    c = await startTestCompanion();
  });
  afterAll(async () => {
    await c.dispose();
  });

  it('gives a record stored by 0.1.0 (no layout, an analysis of before verdicts) its layout when read', async () => {
    const record = await recordFrom(loadFixture('codemode-tool-call-2.json'), { id: 'x-010' });
    await c.store.append(record);
    // What 0.1.0 stored as analysis: a cache part without verdict or why, a first request "cold" by reason.
    const old = {
      version: 1,
      cache: {
        hitRate: 0,
        expectedCachedTokens: 0,
        miss: false,
        reasons: [{ code: 'cold', detail: 'first request of this thread: nothing cached yet' }],
        previousId: null,
        idleMs: null,
        missedTokens: null,
        missCostUsd: null,
      },
      diff: null,
      context: null,
      costUsd: null,
      cost: null,
      facts: { reasoningEffort: null, serviceTier: null, spawns: [] },
    };
    await c.store.attachAnalysis('x-010', old as never, {});
    const { status, body } = await get('/exchanges/x-010');
    expect(status).toBe(200);
    const served = ExchangeRecordSchema.parse(body);
    expect(served.layout).toEqual(requestLayout(record.request.body));
    const tools = served.layout!.tools;
    expect(tools.find((t) => t.key === 'exec')?.nested.map((n) => n.key)).toContain('exec/exec_command');
    expect(served.layout!.entries.some((e) => e.section === 'environment context')).toBe(true);
    // Figures an old analysis lacks read as unknown, never as made-up values.
    expect(served.analysis!.cache).toMatchObject({ verdict: 'unknown' });
    expect(served.analysis!.pricing).toBeNull();
  });
});
