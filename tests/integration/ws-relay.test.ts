import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type Scenario } from '../support/fake-upstream';
import { acceptWebSockets, type FakeWs } from '../support/fake-ws';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { message, response } from '../support/sse';
import { startConnectProxy } from '../support/connect-proxy';
import { fakeKey } from '../support/keys';

const META = (turn: string, kind = 'turn') =>
  JSON.stringify({ session_id: 's-ws', thread_id: 't-ws', turn_id: turn, request_kind: kind, thread_source: 'user', agent_name: '/root' });

interface Client {
  ws: WebSocket;
  upgrade: Record<string, string | string[] | undefined>;
  received: any[];
  closed: Promise<{ code: number }>;
  next(type: string): Promise<any>;
}

function connect(c: TestCompanion): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${c.port}/v1/responses`, {
      headers: {
        authorization: `Bearer ${fakeKey('test-ws-relay-0123456789')}`,
        'session-id': 's-ws',
        'thread-id': 't-ws',
        'x-codex-turn-metadata': META('', 'prewarm'),
        'openai-beta': 'responses_websockets=2026-02-06',
      },
      perMessageDeflate: true,
    });
    const received: any[] = [];
    const waiters: (() => void)[] = [];
    let upgrade: Client['upgrade'] = {};
    ws.on('upgrade', (res) => (upgrade = res.headers));
    ws.on('message', (d, isBinary) => {
      received.push(isBinary ? { binary: (d as Buffer).length } : JSON.parse(d.toString()));
      for (const w of waiters.splice(0)) w();
    });
    const closed = new Promise<{ code: number }>((r) => ws.on('close', (code) => r({ code })));
    ws.on('open', () =>
      resolve({
        ws,
        upgrade,
        received,
        closed,
        next: (type) =>
          new Promise((res, rej) => {
            const t = setTimeout(() => rej(new Error(`no ${type}; got ${received.map((m) => m.type).join(',')}`)), 5000);
            const check = () => {
              const m = received.find((x) => x.type === type);
              if (m) {
                clearTimeout(t);
                res(m);
              } else waiters.push(check);
            };
            check();
          }),
      }),
    );
    ws.on('unexpected-response', (_q, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    ws.on('error', reject);
  });
}

const create = (turn: string, input: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'response.create',
    model: 'gpt-5-codex',
    input,
    client_metadata: { 'x-codex-turn-metadata': META(turn) },
    ...extra,
  });
const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('the WebSocket relay', () => {
  let upstream: FakeUpstream;
  let fake: FakeWs;
  let c: TestCompanion;
  let release: () => void = () => {};
  const normal: Scenario = (req) => {
    const last = req.body.input.at(-1);
    if (last?.content?.[0]?.text === 'hold') {
      const held = new Promise<void>((r) => (release = r));
      return { kind: 'sse', events: response([message('slow')]), hold: { beforeChunk: 2, until: held } };
    }
    return { kind: 'sse', events: response([message(`echo ${req.body.input.length}`)], { id: `resp_${fake.frames.length}` }) };
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    fake = acceptWebSockets(upstream, {
      scenario: normal,
      upgradeHeaders: { 'x-codex-turn-state': 'ts-abc', 'x-models-etag': 'etag-7', 'x-reasoning-included': 'true' },
      rateLimits: { plan_type: 'plus', rate_limits: { primary: { used_percent: 25, window_minutes: 300, reset_at: 1800000000 } } },
    });
    c = await startTestCompanion({ apiUpstream: upstream.baseUrl, maxWebSocketMessageBytes: 64 * 1024 });
  });
  afterEach(async () => {
    release();
    await c.idle();
    await c.store.clear();
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it("opens the upstream first and copies the 101 headers Codex reads; Codex's headers reach the upstream", async () => {
    const client = await connect(c);
    expect(client.upgrade['x-codex-turn-state']).toBe('ts-abc');
    expect(client.upgrade['x-models-etag']).toBe('etag-7');
    expect(client.upgrade['x-reasoning-included']).toBe('true');
    const hs = fake.handshakes.at(-1)!;
    expect(hs.headers.authorization).toBe(`Bearer ${fakeKey('test-ws-relay-0123456789')}`);
    expect(hs.headers['openai-beta']).toBe('responses_websockets=2026-02-06');
    client.ws.close();
  });

  it('relays messages unchanged both ways and records each request/response as an exchange with the rebuilt input', async () => {
    const client = await connect(c);
    const first = create('turn-1', [user('one')]);
    client.ws.send(first);
    const done1 = await client.next('response.completed');
    expect(fake.clientMessages().at(-1)).toEqual(JSON.parse(first));
    client.received.length = 0;
    client.ws.send(create('turn-1', [user('two')], { previous_response_id: done1.response.id }));
    await client.next('response.completed');
    const sent = fake.frames.filter((f) => f.dir === 'out' && f.conn === fake.frames.at(-1)!.conn).map((f) => f.data);
    expect(client.received).toEqual(sent.slice(-client.received.length));
    client.ws.close();
    await c.idle();
    const [second, firstS] = (await c.store.list({})).items;
    expect(second).toMatchObject({ transport: 'websocket', status: 'completed', turnId: 'turn-1', sessionId: 's-ws' });
    // Analysed like HTTP exchanges (idle waits for it): the second continues the first's prefix.
    expect(second.cache).toMatchObject({ miss: false });
    const rec = await c.store.get(second.id);
    expect((rec!.request.body as any).input).toEqual([user('one'), { ...(await c.store.get(firstS.id))!.response.output[0] }, user('two')]);
    expect((rec!.request.body as any).previous_response_id).toBeUndefined();
    expect((rec!.request.websocketMessage as any).input).toEqual([user('two')]);
    expect((rec!.request.websocketMessage as any).previous_response_id).toBe(done1.response.id);
  });

  it('takes rate limits from codex.rate_limits messages', async () => {
    const client = await connect(c);
    client.ws.send(create('turn-rl', [user('x')]));
    await client.next('response.completed');
    await c.idle();
    expect(c.rateLimits.get()?.codex[0]).toMatchObject({
      limitId: 'codex',
      primary: { usedPercent: 25, windowMinutes: 300, resetsAt: 1800000000 },
    });
    expect(c.rateLimits.get()?.planType).toBe('plus');
    client.ws.close();
  });

  it('keeps the newest rate-limit reading when a later turn brings none: the 101 headers date from the handshake', async () => {
    const limited = await startFakeUpstream();
    acceptWebSockets(limited, {
      upgradeHeaders: { 'x-codex-primary-used-percent': '10', 'x-codex-primary-window-minutes': '300' },
      scenario: (req) => {
        const reading = { type: 'codex.rate_limits', rate_limits: { primary: { used_percent: 40, window_minutes: 300 } } };
        const first = req.body.input.at(-1)?.content?.[0]?.text === 'first';
        return { kind: 'sse', events: [...(first ? [reading] : []), ...response([message('ok')])] };
      },
    });
    const c2 = await startTestCompanion({ apiUpstream: limited.baseUrl });
    try {
      const client = await connect(c2);
      client.ws.send(create('turn-rl-1', [user('first')]));
      await client.next('response.completed');
      client.received.length = 0;
      client.ws.send(create('turn-rl-2', [user('second')]));
      await client.next('response.completed');
      client.ws.close();
      await c2.idle();
      expect(c2.rateLimits.get()?.codex[0].primary?.usedPercent).toBe(40);
    } finally {
      await c2.dispose();
      await limited.close();
    }
  });

  it('records a wrapped error frame as a failed exchange with its status and error', async () => {
    fake.setScenario(() => ({ kind: 'json', status: 429, body: { error: { type: 'usage_limit_reached', message: 'limit' } } }));
    try {
      const client = await connect(c);
      client.ws.send(create('turn-err', [user('x')]));
      await client.next('error');
      await c.idle();
      expect((await c.store.list({})).items[0]).toMatchObject({
        transport: 'websocket',
        status: 'failed',
        httpStatus: 429,
        error: { code: 'http_429', upstreamCode: 'usage_limit_reached' },
      });
      client.ws.close();
    } finally {
      fake.setScenario(normal);
    }
  });

  it('closes Codex with a matching code and records the exchange as aborted when the upstream closes mid-response', async () => {
    const client = await connect(c);
    client.ws.send(create('turn-up', [user('hold')]));
    await client.next('response.created');
    const [, sock] = [...fake.sockets.entries()].at(-1)!;
    sock.close(4000, 'upstream going away');
    expect((await client.closed).code).toBe(4000);
    await c.idle();
    expect((await c.store.list({})).items[0]).toMatchObject({ status: 'aborted', error: { code: 'connection_closed' } });
  });

  it('closes the upstream and records the exchange as aborted when Codex closes mid-response', async () => {
    const client = await connect(c);
    client.ws.send(create('turn-cl', [user('hold')]));
    await client.next('response.created');
    const conn = fake.frames.at(-1)!.conn;
    client.ws.close(1001, 'bye');
    await expect.poll(() => fake.closes.find((x) => x.conn === conn)?.code).toBe(1001);
    await c.idle();
    expect((await c.store.list({})).items[0].status).toBe('aborted');
  });

  it('closes both sides with 1009 on an oversized frame', async () => {
    const client = await connect(c);
    const conn = fake.handshakes.length;
    client.ws.send(create('turn-big', [user('x'.repeat(100 * 1024))]));
    expect((await client.closed).code).toBe(1009);
    await expect.poll(() => fake.closes.find((x) => x.conn === conn)?.code).toBe(1009);
  });

  it('relays a binary frame unchanged and notes it in the exchange', async () => {
    const client = await connect(c);
    client.ws.send(create('turn-bin', [user('hold')]));
    await client.next('response.created');
    client.ws.send(Buffer.from([0, 1, 2, 3, 255]), { binary: true });
    await expect.poll(() => fake.frames.some((f) => f.binary)).toBe(true);
    expect(fake.frames.find((f) => f.binary)!.data).toEqual(Buffer.from([0, 1, 2, 3, 255]));
    release();
    await client.next('response.completed');
    client.ws.close();
    await c.idle();
    const rec = await c.store.get((await c.store.list({})).items[0].id);
    expect(rec!.response.events.find((e) => e.type === 'binary')).toMatchObject({ data: { from: 'client', bytes: 5 } });
  });

  it('answers an upgrade the upstream refuses with the same non-101 status, and records it', async () => {
    const refusing = await startFakeUpstream();
    acceptWebSockets(refusing, { scenario: () => ({ kind: 'hang' }), refuse: 403 });
    const c2 = await startTestCompanion({ apiUpstream: refusing.baseUrl });
    try {
      await expect(connect(c2)).rejects.toMatchObject({ status: 403 });
      await c2.idle();
      expect((await c2.store.list({})).items[0]).toMatchObject({ kind: 'other', method: 'GET', httpStatus: 403 });
    } finally {
      await c2.dispose();
      await refusing.close();
    }
  });

  it('opens the upstream socket through HTTPS_PROXY/HTTP_PROXY with CONNECT, and around it for NO_PROXY hosts', async () => {
    const proxy = await startConnectProxy();
    const via = await startTestCompanion({ apiUpstream: upstream.baseUrl, env: { HTTP_PROXY: proxy.url } });
    const around = await startTestCompanion({ apiUpstream: upstream.baseUrl, env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    try {
      const a = await connect(via);
      a.ws.send(create('turn-proxy', [user('x')]));
      await a.next('response.completed');
      expect(proxy.tunnels).toEqual([`127.0.0.1:${upstream.port}`]);
      a.ws.close();
      const b = await connect(around);
      b.ws.send(create('turn-direct', [user('x')]));
      await b.next('response.completed');
      expect(proxy.tunnels).toHaveLength(1);
      b.ws.close();
    } finally {
      await via.dispose();
      await around.dispose();
      await proxy.close();
    }
  });

  it('refuses upgrades with 426 when started with websocket off, and lists the refusal', async () => {
    const c3 = await startTestCompanion({ apiUpstream: upstream.baseUrl, websocket: false });
    try {
      await expect(connect(c3)).rejects.toMatchObject({ status: 426 });
      await c3.idle();
      expect((await c3.store.list({})).items[0]).toMatchObject({
        kind: 'other',
        method: 'GET',
        path: '/v1/responses',
        httpStatus: 426,
        route: { auth: 'apikey' },
      });
    } finally {
      await c3.dispose();
    }
  });
});
