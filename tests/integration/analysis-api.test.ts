import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, tempHome, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';
import {
  ExchangeRecordSchema,
  SessionPageSchema,
  SessionReportSchema,
  StatusResponseSchema,
  UsageResponseSchema,
} from '../../companion/protocol';
import { fakeKey } from '../support/keys';

const dir = path.resolve('tests/fixtures/unelided');
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8'));

describe('analysis served through the API and the live feed', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  const api = async (p: string) =>
    JSON.parse((await rawRequest(`${c.url}/api${p}`, { headers: { authorization: `Bearer ${c.token()}` } })).body.toString());
  const send = async (f: any, patch: (body: any) => void = () => {}) => {
    const body = structuredClone(f.request.body);
    patch(body);
    const { 'content-length': _l, host: _h, ...headers } = f.request.headers;
    return rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${fakeKey('test-analysis-0123456789')}` },
      body: JSON.stringify(body),
    });
  };

  beforeAll(async () => {
    // The fake answers each request with the SSE recorded for it; a request marked `cold` reports no cached tokens.
    upstream = await startFakeUpstream({
      scenario: (req) => {
        const f = [load('fallback-tool-call-1'), load('fallback-tool-call-2')].find(
          (x) => x.request.body.input.length === req.body.input.length,
        )!;
        const events = structuredClone(f.response_sent_by_fake_upstream.sse_events);
        if (req.body.metadata_marker === 'cold') events.at(-1).response.usage.input_tokens_details.cached_tokens = 0;
        return { kind: 'sse', events };
      },
    });
    const home = tempHome();
    // The user's own rates for gpt-5-codex replace the built-in row: 1 USD per 1M for every kind of token.
    const rates = { inputPer1M: 1, cachedInputPer1M: 1, cacheWritePer1M: 1, outputPer1M: 1 };
    fs.writeFileSync(
      path.join(home, 'prices.json'),
      JSON.stringify({ rows: [{ model: 'gpt-5-codex', tier: 'default', rates, source: 'my invoice', asOf: '2026-11-29' }] }),
    );
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl, home });
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('serves analysis.cache, diff, context and cost with the record, and the cache brief with the summary', async () => {
    const feed = await openFeed(c.url, { token: c.token() });
    await send(load('fallback-tool-call-1'));
    await send(load('fallback-tool-call-2'));
    await c.idle();
    const [second, first] = (await api('/exchanges')).items;
    const rec = ExchangeRecordSchema.parse(await api(`/exchanges/${second.id}`));
    const a = rec.analysis!;
    expect(a.cache).toMatchObject({ miss: false, reasons: [], previousId: first.id });
    expect(a.cache.hitRate).toBeCloseTo(rec.usage!.cachedTokens! / rec.usage!.inputTokens!, 10);
    expect(a.cache.expectedCachedTokens).toBeGreaterThan(0);
    expect(a.diff).toMatchObject({ previousId: first.id, prefixPreserved: true });
    expect(a.context!.sections.length).toBeGreaterThan(3);
    expect(a.context!.contextWindow).toBeNull();
    // At 1 USD per 1M tokens of any kind, the cost is simply input + output tokens over a million.
    expect(a.costUsd).toBeCloseTo((rec.usage!.inputTokens! + rec.usage!.outputTokens!) / 1e6, 12);
    expect(a.cost?.source).toBe('my invoice');
    expect(second.cache).toMatchObject({ hitRate: a.cache.hitRate, miss: false, reasons: [] });
    expect(second.costUsd).toBe(a.costUsd);
    const firstRec = await api(`/exchanges/${first.id}`);
    expect(firstRec.analysis.cache).toMatchObject({ verdict: 'cold', reasons: [] });
    const completed = await feed.waitFor('exchange/completed', (m) => m.exchange.id === second.id);
    expect(completed.exchange.cache).toMatchObject({ miss: false });
    feed.close();
  });

  it('reports a miss with its reason when a tool changes between requests of a thread', async () => {
    await c.store.clear();
    await send(load('fallback-tool-call-1'));
    await send(load('fallback-tool-call-2'), (body) => {
      body.metadata_marker = 'cold';
      body.tools[0].description += ' (changed)';
    });
    await c.idle();
    const [second] = (await api('/exchanges')).items;
    expect(second.cache.miss).toBe(true);
    expect(second.cache.reasons).toContain('tools_changed');
    const rec = await api(`/exchanges/${second.id}`);
    const reason = rec.analysis.cache.reasons.find((r: any) => r.code === 'tools_changed');
    expect(reason.detail).toContain(rec.request.body.tools[0].name);
    expect(rec.analysis.cache.missedTokens).toBeGreaterThan(0);
  });

  it('adds cost, unpriced tokens and all-traffic tokens to /api/usage, with breakdowns by model and thread', async () => {
    const usage = UsageResponseSchema.parse(await api('/usage'));
    expect(usage.codexTokensUsed).toBeGreaterThan(0);
    expect(usage.allTrafficTokens).toBe(usage.codexTokensUsed);
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(usage.unpricedTokens).toBe(0);
    expect(usage.byModel.map((m) => m.model)).toEqual(['gpt-5-codex']);
    expect(usage.byThread).toHaveLength(1);
    expect(usage.byThread[0].codexTokensUsed).toBe(usage.codexTokensUsed);
  });

  it("lists sessions a page at a time, and serves a listed session's thread tree, totals and cache report", async () => {
    const page = SessionPageSchema.parse(await api('/sessions'));
    expect(page).toMatchObject({ matched: 1, stored: 1, nextCursor: null });
    const id = page.items[0].sessionId!;
    const report = SessionReportSchema.parse(await api(`/sessions/${encodeURIComponent(id)}/report`));
    expect(report.threads).toHaveLength(1);
    expect(report.threads[0]).toMatchObject({ role: 'main', agentName: '/root', models: ['gpt-5-codex'] });
    expect(report.totals.exchanges).toBe(2);
    expect(page.items[0].exchanges).toBe(2);
    expect(report.cache.misses).toHaveLength(1);
    expect(report.cache.misses[0].reasons).toContain('tools_changed');
  });

  it('answers 404 for the report of a session it has not seen', async () => {
    const missing = await rawRequest(`${c.url}/api/sessions/no-such-session/report`, { headers: { authorization: `Bearer ${c.token()}` } });
    expect(missing.status).toBe(404);
  });

  it('learns context windows from the /models reply Codex fetches', async () => {
    upstream.setScenario((req) =>
      req.url.startsWith('/v1/models')
        ? { kind: 'json', body: { models: [{ slug: 'gpt-5-codex', context_window: 272000 }] } }
        : { kind: 'sse', events: structuredClone(load('fallback-text-1').response_sent_by_fake_upstream.sse_events) },
    );
    await rawRequest(`${c.url}/v1/models?client_version=0.169.0`, {
      headers: { authorization: `Bearer ${fakeKey('test-analysis-0123456789')}` },
    });
    await send(load('fallback-text-1'));
    await c.idle();
    const [latest] = (await api('/exchanges?kind=model')).items;
    const rec = await api(`/exchanges/${latest.id}`);
    expect(rec.analysis.context.contextWindow).toBe(272000);
  });

  it('takes context windows from settings.json for models /models does not describe', async () => {
    const home = tempHome();
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ contextWindows: { 'gpt-5-codex': 400000 } }));
    upstream.setScenario(() => ({
      kind: 'sse',
      events: structuredClone(load('fallback-text-1').response_sent_by_fake_upstream.sse_events),
    }));
    const c2 = await startTestCompanion({ apiUpstream: upstream.baseUrl, home });
    try {
      const { 'content-length': _l, host: _h, ...headers } = load('fallback-text-1').request.headers;
      await rawRequest(`${c2.url}/v1/responses`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${fakeKey('test-analysis-0123456789')}` },
        body: JSON.stringify(load('fallback-text-1').request.body),
      });
      await c2.idle();
      const record = await c2.store.get((await c2.store.list({})).items[0].id);
      expect(record?.analysis?.context?.contextWindow).toBe(400000);
    } finally {
      await c2.dispose();
    }
  });

  it('reports a broken price override file in the status, and keeps the built-in prices', async () => {
    const home = tempHome();
    fs.writeFileSync(path.join(home, 'prices.json'), '{"rows": [{"model": 5}]}');
    const c2 = await startTestCompanion({ apiUpstream: upstream.baseUrl, home });
    try {
      const status = StatusResponseSchema.parse(
        JSON.parse((await rawRequest(`${c2.url}/api/status`, { headers: { authorization: `Bearer ${c2.token()}` } })).body.toString()),
      );
      expect(status.priceErrors.length).toBeGreaterThan(0);
      expect(status.priceErrors[0]).toContain('prices.json');
    } finally {
      await c2.dispose();
    }
  });
});
