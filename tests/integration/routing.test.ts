import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { startConnectProxy } from '../support/connect-proxy';
import { fakeKey } from '../support/keys';

const FAKE_JWT = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0In0.c2ln';

describe('routing each request by its own credentials', () => {
  let api: FakeUpstream;
  let chatgpt: FakeUpstream;
  beforeAll(async () => {
    api = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('api')]) }) });
    chatgpt = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('chatgpt')]) }) });
  });
  afterAll(async () => {
    await api.close();
    await chatgpt.close();
  });

  it('sends an API key to the API upstream and a ChatGPT login to the ChatGPT backend', async () => {
    const c = await startTestCompanion({ apiUpstream: api.baseUrl, chatgptUpstream: `${chatgpt.origin}/backend-api/codex` });
    try {
      await rawRequest(`${c.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeKey('test-routing-0123456789')}` },
        body: '{}',
      });
      await rawRequest(`${c.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${FAKE_JWT}`, 'chatgpt-account-id': 'acct_fake123' },
        body: '{}',
      });
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${FAKE_JWT}` }, body: '{}' });
      expect(api.requests.map((r) => r.url)).toEqual(['/v1/responses']);
      expect(chatgpt.requests.map((r) => r.url)).toEqual(['/backend-api/codex/responses', '/backend-api/codex/responses']);
      await c.idle();
      const auths = (await c.store.list({})).items.map((s) => s.route.auth).reverse();
      expect(auths).toEqual(['apikey', 'chatgpt', 'chatgpt']);
    } finally {
      await c.dispose();
    }
  });

  it('goes through HTTP_PROXY when set, and around it for hosts in NO_PROXY', async () => {
    // undici tunnels every proxied request through CONNECT.
    const proxy = await startConnectProxy();
    const proxyUrl = proxy.url;
    const proxied = proxy.tunnels;
    const via = await startTestCompanion({ apiUpstream: api.baseUrl, env: { HTTP_PROXY: proxyUrl } });
    const around = await startTestCompanion({ apiUpstream: api.baseUrl, env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
    try {
      const r1 = await rawRequest(`${via.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeKey('test-a-0123456789')}` },
        body: '{}',
      });
      expect(r1.status).toBe(200);
      expect(proxied).toEqual([`127.0.0.1:${api.port}`]);
      expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer ${fakeKey('test-a-0123456789')}`);
      const r2 = await rawRequest(`${around.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakeKey('test-b-0123456789')}` },
        body: '{}',
      });
      expect(r2.status).toBe(200);
      expect(proxied).toHaveLength(1);
    } finally {
      await via.dispose();
      await around.dispose();
      await proxy.close();
    }
  });
});

describe('switching profiles between turns', () => {
  it('keeps a turn in flight on the profile it started on; the next turn takes the new one', async () => {
    const a = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('a')]) }) });
    const b = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('b')]) }) });
    const c = await startTestCompanion({ apiUpstream: a.baseUrl });
    const turn = (id: string) => ({
      authorization: `Bearer ${fakeKey('test-turns-0123456789')}`,
      'x-codex-turn-metadata': JSON.stringify({ turn_id: id, request_kind: 'turn' }),
    });
    try {
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: turn('turn-1'), body: '{}' });
      c.profiles.upsert({ id: 'b', name: 'B', baseUrl: b.baseUrl, apiKey: fakeKey('b-key-0123456789abc') });
      c.profiles.activate('b');
      // The rest of turn 1 (a tool-call follow-up) stays on the default route…
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: turn('turn-1'), body: '{}' });
      // …and turn 2 goes to profile b.
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: turn('turn-2'), body: '{}' });
      expect(a.requests).toHaveLength(2);
      expect(b.requests).toHaveLength(1);
      await c.idle();
      expect((await c.store.list({})).items.map((s) => s.route.profileId)).toEqual(['b', 'default', 'default']);
    } finally {
      await c.dispose();
      await a.close();
      await b.close();
    }
  });
});
