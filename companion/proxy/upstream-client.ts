/**
 * @module The HTTP client for upstream requests: Node's own `http`/`https` with keep-alive
 * agents. Node's client gives raw bytes (no decompression, so Codex gets exactly what the
 * upstream sent), parses in native code and shares its socket machinery with the server side, so
 * a response flows socket to socket without a second HTTP stack in between. HTTPS_PROXY /
 * HTTP_PROXY / NO_PROXY are honoured with a CONNECT tunnel (https-proxy-agent, as the WebSocket
 * relay does); NODE_EXTRA_CA_CERTS by Node's TLS layer.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { proxyFor } from './proxy-env';

export interface UpstreamClientOptions {
  /** Longest wait for response headers. */
  headersTimeoutMs: number;
  /** Longest silence between body chunks. Never below Codex's own `stream_idle_timeout_ms` (300 s). */
  bodyTimeoutMs: number;
  connectTimeoutMs: number;
  /** Proxy variables to honour; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_UPSTREAM_TIMEOUTS = {
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 600_000,
  connectTimeoutMs: 30_000,
} as const;

/** A wait for the upstream that ran out; `phase` says which. */
export class UpstreamTimeout extends Error {
  readonly code = 'UPSTREAM_TIMEOUT';
  constructor(
    readonly phase: 'connect' | 'headers' | 'body',
    ms: number,
  ) {
    super(`no ${phase === 'body' ? 'body bytes' : phase === 'headers' ? 'response headers' : 'connection'} within ${ms} ms`);
  }
}

export interface UpstreamClient {
  readonly timeouts: Omit<UpstreamClientOptions, 'env'>;
  /** Starts a request to `url`; its timers run from now (see `watchTimeouts`). */
  request(url: string, init: { method: string; headers: http.OutgoingHttpHeaders }): http.ClientRequest;
  /** Closes the idle keep-alive sockets. */
  close(): void;
}

/**
 * The connect and header waits from the start of the request, the body wait (socket silence)
 * once the response has begun; each one ends the request with an `UpstreamTimeout`.
 */
function watchTimeouts(req: http.ClientRequest, t: UpstreamClient['timeouts']): void {
  const fail = (phase: UpstreamTimeout['phase'], ms: number) => () => req.destroy(new UpstreamTimeout(phase, ms));
  const headers = setTimeout(fail('headers', t.headersTimeoutMs), t.headersTimeoutMs);
  let connect: NodeJS.Timeout | undefined;
  req.once('socket', (socket) => {
    if (!socket.connecting) return;
    connect = setTimeout(fail('connect', t.connectTimeoutMs), t.connectTimeoutMs);
    socket.once('connect', () => clearTimeout(connect));
  });
  req.once('response', () => {
    clearTimeout(headers);
    clearTimeout(connect);
    req.setTimeout(t.bodyTimeoutMs, fail('body', t.bodyTimeoutMs));
  });
  req.once('close', () => {
    clearTimeout(headers);
    clearTimeout(connect);
  });
}

export function createUpstreamClient(opts: UpstreamClientOptions): UpstreamClient {
  const { env, ...timeouts } = opts;
  const direct = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const tunnels = new Map<string, HttpsProxyAgent<string>>();
  const agentFor = (url: string, secure: boolean): http.Agent => {
    const proxy = proxyFor(url, env);
    if (!proxy) return secure ? direct.https : direct.http;
    let agent = tunnels.get(proxy);
    if (!agent) tunnels.set(proxy, (agent = new HttpsProxyAgent(proxy, { keepAlive: true })));
    return agent;
  };
  return {
    timeouts,
    request(url, init) {
      const secure = url.startsWith('https:');
      const req = (secure ? https : http).request(url, { method: init.method, headers: init.headers, agent: agentFor(url, secure) });
      watchTimeouts(req, timeouts);
      return req;
    },
    close() {
      direct.http.destroy();
      direct.https.destroy();
      for (const a of tunnels.values()) a.destroy();
    },
  };
}
