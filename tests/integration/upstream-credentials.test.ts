import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { rawRequest } from '../support/http';
import { fakeKey } from '../support/keys';
import { stateDirText } from '../support/state-dir';
import { createLogger } from '../../companion/lib/log';

const PASSWORD = 'gw-PASSWORD-5ecret';
const QUERY_KEY = 'query-KEY-5ecret';
const codexHeaders = { authorization: `Bearer ${fakeKey('codex-own-0123456789')}`, 'content-type': 'application/json' };

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Everything the companion wrote or serves about its traffic, as one text to search. */
async function everything(c: TestCompanion, logs: string[], skipFile = /$^/): Promise<string> {
  await c.idle();
  const auth = { authorization: `Bearer ${c.token()}` };
  const list = (await rawRequest(`${c.url}/api/exchanges`, { headers: auth })).body.toString();
  const ids = (JSON.parse(list) as { items: { id: string }[] }).items.map((i) => i.id);
  const records = await Promise.all(
    ids.map(async (id) => (await rawRequest(`${c.url}/api/exchanges/${id}`, { headers: auth })).body.toString()),
  );
  const status = (await rawRequest(`${c.url}/api/status`, { headers: auth })).body.toString();
  const files = [...stateDirText(c.home)].filter(([file]) => !skipFile.test(file)).map(([, text]) => text);
  return [list, ...records, status, ...logs, ...files].join('\n');
}

describe('credentials inside --upstream', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: () => ({ kind: 'sse', events: response([message('x')]) }) });
  });
  afterAll(async () => {
    await upstream.close();
  });

  const start = async (apiUpstream: string) => {
    const logs: string[] = [];
    const c = await startTestCompanion({ apiUpstream, logger: createLogger('debug', (l) => logs.push(l)) });
    return { c, logs };
  };

  it('are used on the wire: the base query stays after the path, userinfo is Basic auth only where Codex sent none', async () => {
    const { c } = await start(`http://gw-user:${PASSWORD}@127.0.0.1:${upstream.port}/v1?api-key=${QUERY_KEY}`);
    try {
      await rawRequest(`${c.url}/v1/responses?stream=1`, { method: 'POST', headers: codexHeaders, body: '{}' });
      await rawRequest(`${c.url}/v1/models`);
      const [responses, models] = upstream.requests.slice(-2);
      expect(responses.url).toBe(`/v1/responses?api-key=${QUERY_KEY}&stream=1`);
      expect(responses.headers.authorization).toBe(codexHeaders.authorization);
      expect(models.url).toBe(`/v1/models?api-key=${QUERY_KEY}`);
      expect(models.headers.authorization).toBe(`Basic ${Buffer.from(`gw-user:${PASSWORD}`).toString('base64')}`);
    } finally {
      await c.dispose();
    }
  });

  it('are never shown, logged or stored: records, API, state directory and log hold them masked', async () => {
    const { c, logs } = await start(`http://gw-user:${PASSWORD}@127.0.0.1:${upstream.port}/v1?api-key=${QUERY_KEY}`);
    try {
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: codexHeaders, body: '{}' });
      const text = await everything(c, logs);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(QUERY_KEY);
      expect(text).not.toContain('gw-user');
      const record = (await c.store.list({})).items[0];
      expect(record.route.upstream).toBe(`http://***@127.0.0.1:${upstream.port}/v1?api-key=***`);
    } finally {
      await c.dispose();
    }
  });

  it('are not in the error Codex prints when the upstream cannot be reached, nor in the log or the record', async () => {
    const port = await closedPort();
    const { c, logs } = await start(`http://gw-user:${PASSWORD}@127.0.0.1:${port}/v1?api-key=${QUERY_KEY}`);
    try {
      const res = await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: codexHeaders, body: '{}' });
      expect(res.status).toBe(502);
      const body = res.body.toString();
      expect(body).toContain(`http://***@127.0.0.1:${port}/v1?api-key=***`);
      expect(logs.join('\n')).toContain('could not reach');
      const text = body + (await everything(c, logs));
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(QUERY_KEY);
    } finally {
      await c.dispose();
    }
  });

  it('in a profile URL are masked in the profile list and in records', async () => {
    const { c, logs } = await start(upstream.baseUrl);
    try {
      c.profiles.upsert({ id: 'gw', name: 'Gateway', baseUrl: `${upstream.baseUrl}?key=${QUERY_KEY}`, apiKey: null });
      c.profiles.activate('gw');
      await rawRequest(`${c.url}/v1/responses`, { method: 'POST', headers: codexHeaders, body: '{}' });
      expect(upstream.requests.at(-1)!.url).toBe(`/v1/responses?key=${QUERY_KEY}`);
      const profiles = (await rawRequest(`${c.url}/api/profiles`, { headers: { authorization: `Bearer ${c.token()}` } })).body.toString();
      expect(profiles).toContain('?key=***');
      // The profiles file keeps the real URL (it is the configuration, mode 0600); nothing else may.
      const text = profiles + (await everything(c, logs, /profiles\.json$/));
      expect(text).not.toContain(QUERY_KEY);
    } finally {
      await c.dispose();
    }
  });
});
