import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream, type Scenario } from '../support/fake-upstream';
import { acceptWebSockets, type FakeWs } from '../support/fake-ws';
import { scenarios } from '../support/scenarios';
import { makeTestCa, fakeChatgptAuth, type TestCa } from '../support/tls';
import { runCodex, type CodexRun } from '../support/codex';
import { startCli, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { tempHome } from '../support/companion';
import { rawRequest } from '../support/http';
import { stateDirText } from '../support/state-dir';
import { countedByCompanion } from './capture-scenarios';

const ACCOUNT = 'acct_fake123_secret_account';

/**
 * ChatGPT login end to end: Codex with a hand-made auth.json (fake tokens) first asks
 * <chatgpt_base_url>/wham/accounts/check over HTTPS, so the fake upstream serves HTTPS with a CA
 * made for the test (Codex: SSL_CERT_FILE; the companion, started as a separate process:
 * NODE_EXTRA_CA_CERTS). Codex uses the built-in provider with openai_base_url on the companion.
 */
describe('ChatGPT-login traffic through the companion', () => {
  let ca: TestCa;
  let upstream: FakeUpstream;
  let ws: FakeWs;
  const { authJson, accessToken } = fakeChatgptAuth(ACCOUNT);
  const runs: { transport: 'http' | 'websocket'; codex: CodexRun; home: string; port: number; companion: RunningCli }[] = [];

  beforeAll(async () => {
    ca = makeTestCa();
    const turn = scenarios.toolCall();
    const scenario: Scenario = (req) => {
      if (req.url.includes('/wham/accounts/check'))
        return {
          kind: 'json',
          body: { accounts: [{ id: ACCOUNT, workspace_backend_origin: 'NO_CONSTRAINT', account_routing_override: 'NO_CONSTRAINT' }] },
        };
      if (/\/backend-api\/codex\/responses$/.test(req.url)) return turn(req);
      return { kind: 'json', status: 404, body: { detail: 'not served by the fake' } };
    };
    upstream = await startFakeUpstream({ tls: { key: fs.readFileSync(ca.serverKey), cert: fs.readFileSync(ca.serverCert) }, scenario });
    const origin = `https://localhost:${upstream.port}`;
    for (const transport of ['http', 'websocket'] as const) {
      if (transport === 'websocket') ws = acceptWebSockets(upstream, { scenario: scenarios.toolCall() });
      const port = await freePort();
      const home = tempHome();
      const companion = startCli(
        [
          '--port',
          String(port),
          '--home',
          home,
          '--chatgpt-upstream',
          `${origin}/backend-api/codex`,
          ...(transport === 'http' ? ['--no-websocket'] : []),
        ],
        {
          env: { NODE_EXTRA_CA_CERTS: ca.caCert },
        },
      );
      await companion.waitFor('listening on');
      const codex = await runCodex({
        prompt: 'run echo hi',
        provider: 'builtin',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        topLevel: `chatgpt_base_url = "${origin}/backend-api/"`,
        authJson,
        env: { SSL_CERT_FILE: ca.bundle },
      });
      runs.push({ transport, codex, home, port, companion });
    }
  });
  afterAll(async () => {
    for (const r of runs) {
      await r.companion.stop();
      r.codex.cleanup();
      fs.rmSync(r.home, { recursive: true, force: true });
    }
    await upstream.close();
    ca.cleanup();
  });

  const records = async (r: (typeof runs)[number]) => {
    const token = fs.readFileSync(`${r.home}/token`, 'utf8').trim();
    const get = async (p: string) =>
      JSON.parse(
        (await rawRequest(`http://127.0.0.1:${r.port}/api${p}`, { headers: { authorization: `Bearer ${token}` } })).body.toString(),
      );
    const { items } = await get('/exchanges?kind=model&limit=100');
    return Promise.all(items.reverse().map((s: any) => get(`/exchanges/${s.id}`)));
  };

  it('routes the turn to the ChatGPT backend over HTTP, with zstd bodies forwarded as sent and decoded for the record', async () => {
    const r = runs[0];
    expect(r.codex.exitCode).toBe(0);
    expect(r.codex.stdout).toContain('The command printed: hi');
    const turns = (await records(r)).filter((x: any) => x.requestKind === 'turn');
    expect(turns).toHaveLength(2);
    for (const t of turns) {
      expect(t.route).toMatchObject({ auth: 'chatgpt', upstream: `https://localhost:${upstream.port}/backend-api/codex` });
      expect(t.transport).toBe('http');
      expect(t.request.bodyEncoding).toBe('zstd');
      expect(t.request.body.input.length).toBeGreaterThan(0);
      expect(t.request.headers['chatgpt-account-id']).toMatch(/^\[redacted/);
    }
    const received = upstream.requests.filter((q) => /\/codex\/responses$/.test(q.url));
    expect(received.every((q) => q.headers['content-encoding'] === 'zstd' && q.headers['chatgpt-account-id'] === ACCOUNT)).toBe(true);
    expect(countedByCompanion(turns)).toBe(r.codex.tokensUsed);
  });

  it('routes the turn to the ChatGPT backend over the WebSocket too', async () => {
    const r = runs[1];
    expect(r.codex.exitCode).toBe(0);
    const model = await records(r);
    expect(model.map((x: any) => [x.transport, x.requestKind])).toEqual([
      ['websocket', 'prewarm'],
      ['websocket', 'turn'],
      ['websocket', 'turn'],
    ]);
    expect(model.every((x: any) => x.route.auth === 'chatgpt')).toBe(true);
    expect(ws.handshakes.at(-1)!.headers['chatgpt-account-id']).toBe(ACCOUNT);
    expect(countedByCompanion(model)).toBe(r.codex.tokensUsed);
  });

  it('never stores the account id or the access token', () => {
    for (const r of runs) {
      for (const [file, text] of stateDirText(r.home)) {
        for (const secret of [ACCOUNT, accessToken, accessToken.split('.')[1]])
          expect(text.includes(secret), `${secret.slice(0, 12)}… in ${file}`).toBe(false);
      }
    }
  });
});
