import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { rawExchange } from '../support/raw-socket';
import { fakeKey } from '../support/keys';

const BROWSER_HEADERS: Record<string, string>[] = [
  { 'sec-fetch-site': 'same-site' },
  { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  { 'sec-fetch-mode': 'navigate' },
  { 'sec-fetch-dest': 'iframe' },
  { 'sec-fetch-user': '?1' },
  { origin: 'null' },
];

/** Host values that must be refused with 421, from the attack run and the usual rebinding tricks. */
const FOREIGN_HOSTS = [
  '127.999.999.999',
  '127.999.999.999:8642',
  'localhost.',
  'localhost.:8642',
  '127.0.0.1.evil.com',
  '0x7f000001',
  '2130706433',
  '[::ffff:127.0.0.1]',
  'user@127.0.0.1',
  'user:pw@localhost:8642',
  '127.0.0.1:99999',
  'evil.com',
];

/** A companion in front of a fake upstream, started once per describe block. */
function companionBed() {
  const bed = {} as { upstream: FakeUpstream; c: TestCompanion };
  beforeAll(async () => {
    bed.upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('x')]) }) });
    bed.c = await startTestCompanion({ apiUpstream: bed.upstream.baseUrl });
  });
  afterAll(async () => {
    await bed.c.dispose();
    await bed.upstream.close();
  });
  return bed;
}

/** A WebSocket upgrade request to the proxy, with `extra` header lines. */
const upgradeLines = (host: string, extra: string[] = []) => [
  'GET /v1/responses HTTP/1.1',
  `Host: ${host}`,
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ...extra,
];

describe('the proxy routes refuse what is not Codex', () => {
  const bed = companionBed();

  it('refuses a request carrying a browser Origin, without contacting the upstream', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:9999', 'chrome-extension://abcdefghijklmnop', 'null']) {
      const res = await rawRequest(`${bed.c.url}/v1/responses`, {
        method: 'POST',
        headers: { origin, authorization: 'Bearer sk-x' },
        body: '{}',
      });
      expect(res.status, origin).toBe(403);
    }
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('refuses a request whose Host is not a loopback name (DNS rebinding)', async () => {
    const res = await rawRequest(`${bed.c.url}/v1/responses`, { method: 'POST', headers: { host: 'attacker.example:8642' }, body: '{}' });
    expect(res.status).toBe(421);
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('forwards only /v1 and below: an encoded or look-alike prefix is no proxy path and reaches nothing', async () => {
    for (const target of ['/%76%31/responses', '/v%31/responses', '/V1/responses', '/v1responses', '/v10/responses']) {
      const res = await rawRequest(`${bed.c.url}${target}`, { method: 'POST', headers: { authorization: 'Bearer sk-x' }, body: '{}' });
      expect(res.status, target).toBe(404);
      expect((JSON.parse(res.body.toString()) as { error: string }).error, target).toBe('not_found');
    }
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('accepts loopback Host names', async () => {
    for (const host of [`127.0.0.1:${bed.c.port}`, `localhost:${bed.c.port}`, `[::1]:${bed.c.port}`]) {
      const res = await rawRequest(`${bed.c.url}/v1/responses`, {
        method: 'POST',
        headers: { host, authorization: 'Bearer sk-x' },
        body: '{}',
      });
      expect(res.status, host).toBe(200);
    }
  });
});

describe('the proxy refuses browsers on every method and on WebSocket upgrades', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('x')]) }) });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl });
    c.profiles.upsert({ id: 'keyed', name: 'Keyed', baseUrl: upstream.baseUrl, apiKey: fakeKey('profile-key-0123456789') });
    c.profiles.activate('keyed');
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('answers any request with browser fetch metadata 403 in OpenAI’s error shape, saying why, and forwards nothing', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'])
      for (const headers of BROWSER_HEADERS) {
        const label = `${method} ${JSON.stringify(headers)}`;
        const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
        const res = await rawRequest(`${c.url}/v1/models?x=1`, {
          method,
          // node:http frames no body for DELETE and OPTIONS unless told its length.
          headers: { ...headers, authorization: `Bearer ${fakeKey('codex-own-0123456789')}`, ...(body ? { 'content-length': '2' } : {}) },
          body,
        });
        expect(res.status, label).toBe(403);
        if (method === 'HEAD') continue;
        const error = (JSON.parse(res.body.toString()) as { error: { type: string; message: string; param: null } }).error;
        expect(error.type, label).toBe('browser_request_refused');
        // Named as browsers spell it: `sec-fetch-site` → `Sec-Fetch-Site`.
        const named = Object.keys(headers)[0].replace(/(^|-)\w/g, (m) => m.toUpperCase());
        expect(error.message, label).toContain(`carried a ${named} header`);
        expect(error.param).toBeNull();
      }
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a WebSocket upgrade that carries an Origin or fetch metadata', async () => {
    for (const extra of ['Origin: http://127.0.0.1:9', 'Sec-Fetch-Site: same-site', 'Sec-Fetch-Mode: websocket']) {
      const res = await rawExchange(
        c.port,
        upgradeLines(`127.0.0.1:${c.port}`, [`Authorization: Bearer ${fakeKey('codex-own-0123456789')}`, extra]),
      );
      expect(res.status, extra).toBe(403);
      expect(res.text, extra).toContain('browser_request_refused');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('never gives the active profile’s key to a request that carried no credentials of its own', async () => {
    const res = await rawRequest(`${c.url}/v1/models`);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body.toString()).error.type).toBe('missing_credentials');
    const upgrade = await rawExchange(c.port, upgradeLines(`127.0.0.1:${c.port}`));
    expect(upgrade.status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  });

  it('swaps in the profile’s key for a request that carries Codex’s own', async () => {
    const res = await rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fakeKey('codex-own-0123456789')}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(upstream.requests.at(-1)!.headers.authorization).toBe(`Bearer ${fakeKey('profile-key-0123456789')}`);
    upstream.requests.length = 0;
  });
});

describe('the loopback Host check', () => {
  const bed = companionBed();

  const send = (path: string, hostLines: string[], method = 'POST') =>
    rawExchange(
      bed.c.port,
      [
        `${method} ${path} HTTP/1.1`,
        ...hostLines,
        `Authorization: Bearer ${fakeKey('codex-own-0123456789')}`,
        'Content-Length: 2',
        'Connection: close',
      ],
      '{}',
    );

  it('answers 421 to every Host that is not a real loopback literal, on the proxy and the API, and never 500', async () => {
    for (const host of FOREIGN_HOSTS)
      for (const path of ['/v1/responses', '/api/health']) {
        const res = await send(path, [`Host: ${host}`], path === '/api/health' ? 'GET' : 'POST');
        expect(res.status, `${host} ${path}`).toBe(421);
      }
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('answers 421 to an empty, a missing and a duplicated Host', async () => {
    for (const lines of [
      ['Host: '],
      [],
      [`Host: 127.0.0.1:${bed.c.port}`, 'Host: evil.com'],
      ['Host: evil.com', `Host: 127.0.0.1:${bed.c.port}`],
    ]) {
      const res = await send('/v1/responses', lines);
      // Node itself answers a request without Host 400; either way nothing is forwarded.
      expect([400, 421], JSON.stringify(lines)).toContain(res.status);
    }
    expect(bed.upstream.requests).toHaveLength(0);
  });

  it('refuses a WebSocket upgrade to a foreign Host', async () => {
    for (const host of ['127.999.999.999', 'localhost.', '0x7f000001']) {
      const res = await rawExchange(bed.c.port, upgradeLines(host));
      expect(res.status, host).toBe(421);
    }
  });

  it('accepts the loopback literals, with and without a port', async () => {
    for (const host of [
      `127.0.0.1:${bed.c.port}`,
      '127.0.0.1',
      `127.8.9.10:${bed.c.port}`,
      'localhost',
      `LOCALHOST:${bed.c.port}`,
      `[::1]:${bed.c.port}`,
      '[::1]',
    ]) {
      const res = await send('/v1/responses', [`Host: ${host}`]);
      expect(res.status, host).toBe(200);
    }
  });
});
