/**
 * Capture through the running companion (forwarded, copied to the capture worker over its
 * channel, parsed there) builds the same records from the real Codex traffic in
 * tests/fixtures as the capture stages do when the traffic is replayed into them directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { fixtureSse, httpFixtureNames, loadFixture } from '../support/fixtures';
import { replayFixture } from '../support/flows';
import { rawRequest } from '../support/http';

/**
 * Drops what differs between two captures of the same traffic: ids, clocks, the route taken,
 * headers of the hop, analysis (the replay runs none), and sub-agent nicknames (the companion
 * learns them from earlier fixtures' spawn_agent outputs; a lone replay cannot).
 */
function comparable(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => comparable(x));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (
      ['t', 'id', 'route', 'upstreamUrl', 'headers', 'analysis', 'cache', 'costUsd', 'facts', 'nickname', 'agentNickname'].includes(k) &&
      key !== 'item'
    )
      continue;
    if (/At$/.test(k)) continue;
    out[k] = comparable(x, k);
  }
  return out;
}

describe('capture of the real-traffic fixtures through the companion', () => {
  let upstream: FakeUpstream;
  let companion: TestCompanion;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    companion = await startTestCompanion({ apiUpstream: upstream.baseUrl, chatgptUpstream: upstream.baseUrl });
  });
  afterAll(async () => {
    await companion.dispose();
    await upstream.close();
  });

  for (const name of httpFixtureNames()) {
    it(`records ${name} as the capture stages do`, async () => {
      const recorded = loadFixture(name);
      // A custom provider's ChatGPT-backend path comes to the companion under /v1 like any other.
      const url = recorded.request.url.startsWith('/v1')
        ? recorded.request.url
        : '/v1' + recorded.request.url.replace(/^\/backend-api\/codex/, '');
      const f = { ...recorded, request: { ...recorded.request, url } };
      const r = f.response_sent_by_fake_upstream;
      const isSse = Array.isArray(r.sse_events);
      const bytes = isSse ? fixtureSse(f) : Buffer.from(JSON.stringify(r.json ?? null));
      const headers = { ...r.headers, 'content-type': isSse ? 'text/event-stream' : (r.headers['content-type'] ?? 'application/json') };
      upstream.setScenario(() => ({ kind: 'exact', status: r.status, headers: Object.entries(headers), chunks: [bytes] }));
      const body = f.request.body === undefined ? undefined : Buffer.from(JSON.stringify(f.request.body));
      const sent = Object.fromEntries(Object.entries(f.request.headers).filter(([k]) => k !== 'host' && k !== 'content-length'));
      const res = await rawRequest(`${companion.url}${f.request.url}`, {
        method: f.request.method,
        headers: body ? { ...sent, 'content-length': String(body.length) } : sent,
        body,
      });
      expect(res.body.equals(bytes)).toBe(true);
      await companion.idle();
      const [s] = (await companion.store.list({ limit: 1 })).items;
      const live = await companion.store.get(s.id);
      const replayed = await replayFixture(f);
      expect(comparable(live)).toEqual(comparable(replayed));
    });
  }
});
