/**
 * A scripted stand-in for the OpenAI Responses API on 127.0.0.1 (ephemeral port). It answers
 * each request with a plan taken from scenario data and records everything it received.
 * Test-only: it plays OpenAI, never anything else.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { encodeSse, type SseEvent } from './sse';

export interface ReceivedRequest {
  n: number;
  method: string;
  /** Path and query as received, e.g. `/v1/responses`. */
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** Parsed JSON body (decoded from zstd/gzip first), or undefined. */
  /** Scenario code reads arbitrary request JSON. */
  body: any;
  /** True when the client went away before the response finished. */
  aborted: boolean;
  /** Response body bytes handed to the socket so far. */
  bytesWritten: number;
}

export type Plan =
  | {
      kind: 'sse';
      status?: number;
      headers?: Record<string, string>;
      events: SseEvent[];
      /** One write per event, the only chunking (byte-level splits are tested on the parsers directly). */
      chunking?: 'per-event';
      chunkDelayMs?: number;
      /** Wait for this promise before sending chunk number `index`. */
      hold?: { beforeChunk: number; until: Promise<void> };
    }
  | {
      kind: 'raw';
      status?: number;
      headers?: Record<string, string>;
      chunks: (string | Buffer)[] | (() => Iterable<string | Buffer>);
      chunkDelayMs?: number;
      /** Wait for 'drain' when the socket buffer is full, as a well-behaved server does. */
      awaitDrain?: boolean;
    }
  | { kind: 'json'; status?: number; headers?: Record<string, string>; body: unknown }
  /**
   * Exactly these header lines (none added, not even content-type) and body chunks; `cut`
   * destroys the socket after the chunks instead of ending the response.
   */
  | { kind: 'exact'; status: number; headers: [string, string][]; chunks: (string | Buffer)[]; cut?: boolean }
  | { kind: 'hang' };

export type Scenario = (req: ReceivedRequest) => Plan | Promise<Plan>;

export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface FakeUpstream {
  /** e.g. `http://127.0.0.1:12345` */
  origin: string;
  /** `origin + /v1` */
  baseUrl: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests to the Responses path only. */
  modelRequests(): ReceivedRequest[];
  setScenario(s: Scenario): void;
  /** Handles WebSocket upgrades; by default they are refused with 426. */
  onUpgrade(handler: UpgradeHandler | null): void;
  close(): Promise<void>;
}

/** A request to the Responses path (`…/responses`), i.e. a model request. */
export function isModelRequest(req: ReceivedRequest): boolean {
  return req.method === 'POST' && /\/responses$/.test(req.url.split('?')[0]);
}

function decodeBody(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'zstd':
      return Buffer.from(zstdDecompress(raw));
    case 'gzip':
      return zlib.gunzipSync(raw);
    case 'br':
      return zlib.brotliDecompressSync(raw);
    case 'deflate':
      return zlib.inflateSync(raw);
    default:
      return raw;
  }
}

/** The encoded events, one buffer per event. */
function perEvent(events: SseEvent[]): Buffer[] {
  return events.map((e) => Buffer.from(encodeSse([e])));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function play(plan: Plan, req: ReceivedRequest, res: http.ServerResponse): Promise<void> {
  switch (plan.kind) {
    case 'hang':
      return;
    case 'json': {
      const text = JSON.stringify(plan.body);
      res.writeHead(plan.status ?? 200, { 'content-type': 'application/json', ...plan.headers });
      res.end(text);
      req.bytesWritten += Buffer.byteLength(text);
      return;
    }
    case 'exact': {
      res.writeHead(
        plan.status,
        plan.headers.flatMap(([k, v]) => [k, v]),
      );
      res.flushHeaders();
      for (const c of plan.chunks) {
        const full = !res.write(c);
        req.bytesWritten += Buffer.byteLength(c);
        if (full) await new Promise<void>((r) => res.once('drain', r));
      }
      if (plan.cut) res.socket?.destroy();
      else res.end();
      return;
    }
    case 'raw': {
      res.writeHead(plan.status ?? 200, { 'content-type': 'text/event-stream', ...plan.headers });
      res.flushHeaders();
      for (const c of typeof plan.chunks === 'function' ? plan.chunks() : plan.chunks) {
        if (req.aborted) return;
        const full = !res.write(c);
        req.bytesWritten += Buffer.byteLength(c);
        if (full && plan.awaitDrain) {
          await new Promise<void>((r) => {
            const done = () => {
              res.off('drain', done).off('close', done);
              r();
            };
            res.on('drain', done).on('close', done);
          });
        }
        if (plan.chunkDelayMs) await sleep(plan.chunkDelayMs);
      }
      res.end();
      return;
    }
    case 'sse': {
      const chunks = perEvent(plan.events);
      res.writeHead(plan.status ?? 200, { 'content-type': 'text/event-stream', ...plan.headers });
      res.flushHeaders();
      for (let i = 0; i < chunks.length; i++) {
        if (plan.hold && plan.hold.beforeChunk === i) await plan.hold.until;
        if (req.aborted) return;
        res.write(chunks[i]);
        req.bytesWritten += chunks[i].length;
        if (plan.chunkDelayMs) await sleep(plan.chunkDelayMs);
      }
      res.end();
      return;
    }
  }
}

export interface FakeUpstreamOptions {
  scenario?: Scenario;
  /** Serve HTTPS with this key and certificate (for the ChatGPT-login test bed). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  host?: string;
}

export async function startFakeUpstream(opts: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  let scenario: Scenario = opts.scenario ?? (() => ({ kind: 'json', status: 404, body: { error: { message: 'no scenario' } } }));
  let upgrade: UpgradeHandler | null = null;
  const requests: ReceivedRequest[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      let body: unknown;
      try {
        const decoded = decodeBody(raw, req.headers['content-encoding'] as string | undefined);
        body = decoded.length ? JSON.parse(decoded.toString('utf8')) : undefined;
      } catch {
        body = undefined; // not JSON: scenarios read `raw` instead
      }
      const rec: ReceivedRequest = {
        n: requests.length + 1,
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        raw,
        body,
        aborted: false,
        bytesWritten: 0,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.aborted = true;
      });
      Promise.resolve(scenario(rec))
        .then((plan) => play(plan, rec, res))
        .catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `fake upstream scenario threw: ${String(err)}` } }));
        });
    });
  };
  const server = opts.tls ? https.createServer(opts.tls, handler) : http.createServer(handler);
  server.on('upgrade', (req, socket, head) => {
    if (upgrade) return upgrade(req, socket, head);
    socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `${opts.tls ? 'https' : 'http'}://${host === '127.0.0.1' ? '127.0.0.1' : host}:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    port,
    requests,
    modelRequests: () => requests.filter(isModelRequest),
    setScenario: (s) => (scenario = s),
    onUpgrade: (h) => (upgrade = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
