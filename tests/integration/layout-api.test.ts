import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLayout } from '../../companion/analysis/layout';
import { ExchangeRecordSchema } from '../../companion/protocol';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';
import { openFeed } from '../support/live-client';
import { message, response } from '../support/sse';
import { loadFixture, recordFrom } from '../support/records';

describe('the request layout over the API', () => {
  let c: TestCompanion;
  let upstream: FakeUpstream;
  let release: () => void = () => {};
  const get = async (path: string) => {
    const res = await rawRequest(`${c.url}/api${path}`, { headers: { authorization: `Bearer ${c.token()}` } });
    return { status: res.status, body: JSON.parse(res.body.toString()) };
  };

  beforeAll(async () => {
    // The answer stops after its first events until the test releases it: the exchange is streaming meanwhile.
    upstream = await startFakeUpstream({
      scenario: () => ({
        kind: 'sse',
        events: response([message('Still thinking about it.', { pieces: 4 })]),
        chunking: 'per-event',
        hold: { beforeChunk: 3, until: new Promise<void>((r) => (release = r)) },
      }),
    });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
  });
  afterAll(async () => {
    release();
    await c.dispose();
    await upstream.close();
  });

  it('serves the layout of an exchange whose response still streams', async () => {
    const fixture = loadFixture('codemode-tool-call-2.json');
    const feed = await openFeed(c.url, { token: c.token() });
    await feed.waitFor('feed/snapshot');
    const { 'content-length': _l, host: _h, ...headers } = fixture.request!.headers;
    const done = rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${fakeKey('test-layout-0123456789')}` },
      body: JSON.stringify(fixture.request!.body),
    });
    const started = await feed.waitFor('exchange/started');
    // Output has begun to arrive, and the rest is held back.
    await feed.waitFor('exchange/progress', (m) => m.id === started.exchange.id);
    const { status, body } = await get(`/exchanges/${started.exchange.id}`);
    expect(status).toBe(200);
    const served = ExchangeRecordSchema.parse(body);
    expect(served.status).toBe('streaming');
    expect(served.layout).toEqual(requestLayout(fixture.request!.body));
    expect(served.layout!.tools.find((t) => t.key === 'exec')?.nested.length).toBeGreaterThan(0);
    release();
    expect((await done).status).toBe(200);
    feed.close();
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
