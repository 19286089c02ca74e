import { describe, expect, it } from 'vitest';
import { analyzeExchange, cacheBrief } from '../../../companion/analysis/analyze';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { loadFixture as loadHttpFixture } from '../../support/fixtures';
import { replay, replayFixture } from '../../support/flows';
import { analyseAll, loadFixture, recordFrom, runRecords } from '../../support/records';
import { encodeSse, response, type SseEvent } from '../../support/sse';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

interface WsFrame {
  dir: string;
  message?: { type: string } & Record<string, unknown>;
}
interface WsFixture {
  upgrade_request: { headers: Record<string, string> };
  frames: WsFrame[];
}

/**
 * The prewarm of a real WebSocket capture as a record: its `response.create` message is the
 * request body, the events the fake sent until the first terminal event are the response.
 */
async function wsPrewarm(): Promise<ExchangeRecord> {
  const fx = loadHttpFixture<WsFixture>('g-ws-text-1');
  const [create, ...rest] = fx.frames;
  const { type: _type, ...body } = create.message!;
  const events: SseEvent[] = [];
  for (const f of rest) {
    if (!f.message || f.dir.startsWith('client')) break;
    events.push(f.message);
    if (f.message.type === 'response.completed') break;
  }
  const { upgrade: _u, connection: _c, ...headers } = fx.upgrade_request.headers;
  return replay(
    { headers: { ...headers, 'content-type': 'application/json' }, body },
    { status: 200, headers: { 'content-type': 'text/event-stream' }, bytes: Buffer.from(encodeSse(events)) },
    { id: 'prewarm', startedAt: T0 },
  );
}

describe('cache verdicts on real traffic', () => {
  it('calls a 429 that never reached the model "not applicable", never a hit', async () => {
    const record = await replayFixture(loadHttpFixture('d-http429-usage-limit-1'), { id: 'r429', startedAt: T0 });
    expect(record.usage).toBeNull();
    const a = analyzeExchange(record, null);
    expect(a.cache).toMatchObject({ verdict: 'not_applicable', miss: false, reasons: [], expectedCachedTokens: null, hitRate: null });
    expect(a.cache.why).toContain('HTTP 429');
    expect(a.cache.why).toContain('usage_limit_reached');
    expect(cacheBrief(a)).toMatchObject({ verdict: 'not_applicable', why: a.cache.why });
  });

  it('calls a request that failed without usage "not applicable", even after a request of its thread', async () => {
    const first = await recordFrom(loadFixture('fallback-tool-call-1.json'), { id: 'prev', startedAt: T0 });
    const fx = loadFixture('fallback-tool-call-2.json');
    fx.response_sent_by_fake_upstream!.sse_events = response([], { end: 'failed', usage: null });
    const failed = await recordFrom(fx, { id: 'failed', startedAt: T0 + 5000 });
    expect(failed.status).toBe('failed');
    const a = analyzeExchange(failed, first);
    expect(a.cache).toMatchObject({ verdict: 'not_applicable', miss: false, expectedCachedTokens: null, previousId: 'prev' });
    expect(a.cache.why).toMatch(/failed .*reported no usage/);
  });

  it('calls a WebSocket prewarm with 0 input "not applicable", never a miss', async () => {
    const prewarm = await wsPrewarm();
    expect(prewarm.identity.requestKind).toBe('prewarm');
    expect(prewarm.usage?.inputTokens).toBe(0);
    const a = analyzeExchange(prewarm, null);
    expect(a.cache).toMatchObject({ verdict: 'not_applicable', miss: false, hitRate: null, missedTokens: null });
    expect(a.cache.why).toContain('prewarm');
  });

  it('judges the local compaction request a miss and caps the next request’s expectation at its own input', async () => {
    const files = ['e-compaction-local-1.json', 'e-compaction-local-2.json', 'e-compaction-local-3.json'];
    const [, compaction, after] = analyseAll(await runRecords('e-compaction-local', files, T0));
    expect(compaction.identity.requestKind).toBe('compaction');
    // The compaction request resends the history, but the upstream read nothing from the cache.
    expect(compaction.analysis!.cache).toMatchObject({ verdict: 'miss', miss: true });
    expect(compaction.analysis!.cache.reasons.length).toBeGreaterThan(0);
    // 250,000 tokens were cacheable before; the 5,000-token request after it can read at most its own input.
    const c = after.analysis!.cache;
    expect(after.usage).toMatchObject({ inputTokens: 5000, cachedTokens: 4096 });
    expect(c.expectedCachedTokens).toBe(4992);
    expect(c).toMatchObject({ verdict: 'hit', miss: false, reasons: [] });
    expect(c.why).toContain('4,096');
  });

  it('never calls a first request with cached tokens "cold"', async () => {
    const first = await recordFrom(loadFixture('a-plain-text-1.json'), { startedAt: T0 });
    expect(first.usage).toMatchObject({ inputTokens: 5000, cachedTokens: 4096 });
    const a = analyzeExchange(first, null);
    expect(a.cache).toMatchObject({ verdict: 'hit', miss: false, previousId: null, reasons: [] });
    expect(a.cache.hitRate).toBeCloseTo(4096 / 5000, 10);
    expect(a.cache.why).toContain('4,096 of its 5,000');
  });

  it('calls a verdict unknown when the upstream reported no cache field', async () => {
    const fx = loadFixture('a-plain-text-1.json');
    for (const e of fx.response_sent_by_fake_upstream!.sse_events!)
      delete (e.response as { usage?: { input_tokens_details?: unknown } } | undefined)?.usage?.input_tokens_details;
    const a = analyzeExchange(await recordFrom(fx, { startedAt: T0 }), null);
    expect(a.cache).toMatchObject({ verdict: 'unknown', miss: false, hitRate: null });
    expect(a.cache.why).toContain('cached_tokens');
  });
});
