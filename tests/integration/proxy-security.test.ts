import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';

describe('the proxy routes refuse what is not Codex', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('x')]) }) });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('refuses a request carrying a browser Origin, without contacting the upstream', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:9999', 'chrome-extension://abcdefghijklmnop', 'null']) {
      const res = await rawRequest(`${c.url}/v1/responses`, {
        method: 'POST',
        headers: { origin, authorization: 'Bearer sk-x' },
        body: '{}',
      });
      expect(res.status, origin).toBe(403);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a request whose Host is not a loopback name (DNS rebinding)', async () => {
    const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: { host: 'attacker.example:8642' }, body: '{}' });
    expect(res.status).toBe(421);
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts loopback Host names', async () => {
    for (const host of [`127.0.0.1:${c.port}`, `localhost:${c.port}`, `[::1]:${c.port}`]) {
      const res = await rawRequest(`${c.url}/v1/responses`, {
        method: 'POST',
        headers: { host, authorization: 'Bearer sk-x' },
        body: '{}',
      });
      expect(res.status, host).toBe(200);
    }
  });
});
