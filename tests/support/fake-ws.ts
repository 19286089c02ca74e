/**
 * The Responses WebSocket transport for the fake upstream: accepts Codex's upgrade, answers
 * each `response.create` with the same scenario plans as HTTP (events as text frames), prewarm
 * (`generate: false`) with an empty completed response, and records every frame. Test-only.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FakeUpstream, Plan, ReceivedRequest, Scenario } from './fake-upstream';
import { response } from './sse';

export interface WsFrame {
  conn: number;
  dir: 'in' | 'out';
  data: any;
  binary?: boolean;
}

export interface FakeWs {
  frames: WsFrame[];
  /** Handshake requests received (headers as sent). */
  handshakes: IncomingMessage[];
  /** Open sockets, by connection number. */
  sockets: Map<number, WebSocket>;
  closes: { conn: number; code: number }[];
  setScenario(s: Scenario): void;
  /** Messages the client sent on all connections, parsed. */
  clientMessages(): any[];
}

export interface FakeWsOptions {
  scenario: Scenario;
  /** Refuse the upgrade with this status (Codex then falls back to HTTP). */
  refuse?: number;
  /** Extra headers on the 101 response. */
  upgradeHeaders?: Record<string, string>;
  /** Sent before each turn's events, like the real backend's rate-limit messages. */
  rateLimits?: Record<string, unknown>;
}

/** Makes the fake answer WebSocket upgrades on its Responses path. */
export function acceptWebSockets(fake: FakeUpstream, opts: FakeWsOptions): FakeWs {
  let scenario = opts.scenario;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: true });
  const state: FakeWs = {
    frames: [],
    handshakes: [],
    sockets: new Map(),
    closes: [],
    setScenario: (s) => (scenario = s),
    clientMessages: () => state.frames.filter((f) => f.dir === 'in' && !f.binary).map((f) => f.data),
  };
  wss.on('headers', (headers) => {
    for (const [k, v] of Object.entries(opts.upgradeHeaders ?? {})) headers.push(`${k}: ${v}`);
  });
  let n = 0;
  fake.onUpgrade((req, socket, head) => {
    state.handshakes.push(req);
    if (opts.refuse) {
      socket.end(`HTTP/1.1 ${opts.refuse} Refused\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = ++n;
      state.sockets.set(conn, ws);
      ws.on('close', (code) => {
        state.closes.push({ conn, code });
        state.sockets.delete(conn);
      });
      const send = (data: unknown) => {
        state.frames.push({ conn, dir: 'out', data });
        ws.send(JSON.stringify(data));
      };
      ws.on('message', async (raw, isBinary) => {
        if (isBinary) {
          state.frames.push({ conn, dir: 'in', data: Buffer.from(raw as Buffer), binary: true });
          return;
        }
        const msg = JSON.parse(raw.toString());
        state.frames.push({ conn, dir: 'in', data: msg });
        if (msg.type !== 'response.create') return;
        if (msg.generate === false) {
          for (const e of response([], {
            id: `resp_prewarm_${conn}_${state.frames.length}`,
            usage: { input: 0, cached: 0, output: 0 },
          }).filter((e) => e.type !== 'response.in_progress'))
            send(e);
          return;
        }
        const cm = msg.client_metadata ?? {};
        const pseudo: ReceivedRequest = {
          n: state.frames.length,
          method: 'WS',
          url: req.url ?? '/v1/responses',
          headers: { ...req.headers, 'x-codex-turn-metadata': cm['x-codex-turn-metadata'], 'x-openai-subagent': cm['x-openai-subagent'] },
          raw: Buffer.from(raw.toString()),
          body: msg,
          aborted: false,
          bytesWritten: 0,
        };
        if (opts.rateLimits) send({ type: 'codex.rate_limits', ...opts.rateLimits });
        const plan: Plan = await scenario(pseudo);
        if (plan.kind === 'sse') {
          for (let i = 0; i < plan.events.length; i++) {
            if (plan.hold && plan.hold.beforeChunk === i) await plan.hold.until;
            if (ws.readyState !== ws.OPEN) return;
            send(plan.events[i]);
          }
        } else if (plan.kind === 'json') {
          send({
            type: 'error',
            status_code: plan.status ?? 500,
            error: (plan.body as any)?.error ?? plan.body,
            headers: plan.headers ?? {},
          });
        }
      });
    });
  });
  return state;
}
