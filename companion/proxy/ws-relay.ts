/**
 * @module Relays Codex's Responses WebSocket. The upstream socket is opened first, with Codex's
 * headers (routed by credentials or profile, like HTTP); only then is Codex's upgrade completed,
 * carrying the upstream's 101 headers Codex reads. Every message is relayed unchanged in both
 * directions the moment it arrives; capture (capture/ws-session.ts) reads copies on the side.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpsProxyAgent } from 'https-proxy-agent';
import WebSocket, { WebSocketServer } from 'ws';
import type { CaptureChannel } from '../capture/channel';
import { recordUpgradeRefusal } from '../capture/upgrade-refusal';
import { describeError, type Logger } from '../lib/log';
import { maskUrlsInText } from '../lib/url-secrets';
import type { Route } from '../protocol/exchange';
import { headerPairsOf as pairsOf, withoutHopByHop, type HeaderPairs } from '../http/headers';
import { openAiErrorBody } from './errors';
import { proxySuffix } from './paths';
import { proxyFor } from './proxy-env';
import type { Router } from './route';

export interface RelayDeps {
  router: Router;
  /** Environment whose HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply to upstream sockets. */
  env?: NodeJS.ProcessEnv;
  channel: CaptureChannel;
  log: Logger;
  /** Largest single message relayed; a bigger one closes both sides with 1009. */
  maxPayload: number;
  connectTimeoutMs: number;
  capturing(): boolean;
}

/** Headers of the upstream's 101 that are not Codex's to receive (the handshake is per hop). */
const NOT_COPIED = new Set([
  'connection',
  'upgrade',
  'sec-websocket-accept',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'content-length',
  'transfer-encoding',
  'date',
  'server',
  'keep-alive',
]);
/** Request headers the ws client sets itself for its own handshake. */
const HANDSHAKE = [
  'host',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'sec-websocket-protocol',
  'content-length',
];

/** Close codes that may be sent in a close frame (RFC 6455 §7.4); others mean "abrupt". */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

function closeLike(ws: WebSocket, code: number, reason: Buffer | string): void {
  if (ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) return;
  if (sendable(code)) ws.close(code, reason.toString().slice(0, 120));
  else ws.terminate();
}

function reply(socket: Duplex, status: number, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${status === 502 ? 'Bad Gateway' : 'Refused'}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export interface RelayConnection {
  profileId: string;
  /** Closes Codex's socket once no exchange is in flight (Codex reconnects and resends full context). */
  closeAtTurnBoundary(reason: string): void;
}

export function createWsRelay(deps: RelayDeps) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: true, maxPayload: deps.maxPayload });
  const extraHeaders = new WeakMap<IncomingMessage, string[]>();
  wss.on('headers', (headers, req) => headers.push(...(extraHeaders.get(req) ?? [])));
  const connections = new Set<RelayConnection>();

  /** Records an upgrade that was not relayed (refused upstream, unreachable) as an `other` exchange. */
  const recordRefusal = (req: IncomingMessage, url: string, route: RelayConnectionRoute, status: number | null, message: string) =>
    deps.capturing() ? recordUpgradeRefusal(deps.channel, req, { upstreamUrl: url, route, status, message }) : undefined;

  type RelayConnectionRoute = Route;

  function handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers = pairsOf(req.headers);
    const decision = deps.router.resolve({ headers, suffix: proxySuffix(url.pathname), query: url.search });
    if (!decision.ok) {
      reply(socket, decision.status, openAiErrorBody(decision.type, decision.message, 'codex_devtools_profile'));
      void recordRefusal(req, '', decision.route, decision.status, decision.message);
      return;
    }
    const target = decision.url.replace(/^http/, 'ws');
    let upgradeHeaders: HeaderPairs = [];
    let upgradedAt = 0;
    // Through the same outbound proxy as HTTP requests, tunnelled with CONNECT.
    const proxy = proxyFor(decision.url, deps.env);
    const up = new WebSocket(target, {
      headers: Object.fromEntries(withoutHopByHop(decision.headers, HANDSHAKE)),
      perMessageDeflate: true,
      maxPayload: deps.maxPayload,
      handshakeTimeout: deps.connectTimeoutMs,
      ...(proxy ? { agent: new HttpsProxyAgent(proxy) } : {}),
    });
    let settled = false;
    socket.once('close', () => {
      if (!settled) up.terminate(); // Codex gave up before the upstream answered
    });
    up.on('upgrade', (res) => {
      upgradeHeaders = pairsOf(res.headers);
      upgradedAt = Date.now();
    });
    up.on('unexpected-response', (_r, res) => {
      settled = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        // Any non-101 makes Codex fall back to HTTP for the session, as without us.
        socket.end(
          `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\r\nconnection: close\r\ncontent-length: ${Buffer.concat(chunks).length}\r\n\r\n${Buffer.concat(chunks).toString()}`,
        );
        void recordRefusal(
          req,
          decision.url,
          decision.route,
          res.statusCode ?? 0,
          `upstream refused the WebSocket upgrade (${res.statusCode})`,
        );
      });
      up.terminate();
    });
    up.on('error', (err) => {
      if (settled) return;
      settled = true;
      const message = `codex-devtools (the local companion proxy) could not open a WebSocket to the upstream ${decision.route.upstream}: ${maskUrlsInText(describeError(err))}`;
      deps.log.warn(message);
      reply(socket, 502, openAiErrorBody('upstream_unreachable', message, 'codex_devtools_upstream'));
      void recordRefusal(req, decision.url, decision.route, null, message);
    });
    up.on('open', () => {
      settled = true;
      if ((socket as { destroyed?: boolean }).destroyed) return up.terminate();
      extraHeaders.set(
        req,
        upgradeHeaders.filter(([k]) => !NOT_COPIED.has(k)).map(([k, v]) => `${k}: ${v}`),
      );
      wss.handleUpgrade(req, socket, head, (client) => bridge(req, client, up, decision.url, decision.route, upgradeHeaders, upgradedAt));
    });
  }

  function bridge(
    req: IncomingMessage,
    client: WebSocket,
    up: WebSocket,
    upstreamUrl: string,
    route: RelayConnectionRoute,
    upgradeHeaders: HeaderPairs,
    upgradedAt: number,
  ): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let closeWhenIdle: string | null = null;
    // Turn state comes from the capture worker, which parses every message; it is current once
    // it has seen every text message Codex sent (`clientMessages`).
    let sentTexts = 0;
    let turn = { open: false, seen: 0 };
    const idle = () => !turn.open && turn.seen === sentTexts;
    const session = deps.channel.openWs(
      {
        path: url.pathname,
        query: url.search,
        upstreamUrl,
        handshakeHeaders: pairsOf(req.headers),
        upgradeResponseHeaders: upgradeHeaders,
        upgradedAt,
        route,
      },
      (open, turnId, clientMessages) => {
        turn = { open, seen: clientMessages };
        // The turn now lives on this connection's route: a reconnect for the same turn comes back to it.
        if (open && turnId) deps.router.pin?.(turnId, route.profileId);
        if (closeWhenIdle && idle()) client.close(1012, closeWhenIdle);
      },
    );
    const conn: RelayConnection = {
      profileId: route.profileId,
      closeAtTurnBoundary(reason) {
        closeWhenIdle = reason;
        if (idle()) client.close(1012, reason);
      },
    };
    connections.add(conn);

    client.on('message', (data, isBinary) => {
      up.send(data, { binary: isBinary });
      if (isBinary) return session.binary('client', (data as Buffer).length);
      sentTexts++;
      session.text('client', data.toString());
    });
    up.on('message', (data, isBinary) => {
      client.send(data, { binary: isBinary });
      if (isBinary) session.binary('server', (data as Buffer).length);
      else session.text('server', data.toString());
    });
    let ended = false;
    // A side closed for a protocol error (e.g. an oversized message) reports 1006 in its own close
    // event; the code it sent its peer is carried over so both sides see the same reason.
    const errorCode = new Map<WebSocket, number>();
    const noteError = (ws: WebSocket, side: string) => (err: Error & { code?: string }) => {
      const code = err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : err.code?.startsWith('WS_ERR_') ? 1002 : null;
      if (code) errorCode.set(ws, code);
      deps.log.debug(`relay: ${side} socket error: ${err.message}`);
    };
    const end = (by: 'Codex' | 'upstream', code: number, reason: Buffer, self: WebSocket, other: WebSocket) => {
      if (ended) return;
      ended = true;
      connections.delete(conn);
      code = code === 1006 ? (errorCode.get(self) ?? code) : code;
      closeLike(other, code, reason);
      session.close(`${by} closed the WebSocket (code ${code}${reason.length ? `: ${reason.toString()}` : ''}) before the response ended`);
    };
    client.on('close', (code, reason) => end('Codex', code, reason, client, up));
    up.on('close', (code, reason) => end('upstream', code, reason, up, client));
    client.on('error', noteError(client, 'Codex'));
    up.on('error', noteError(up, 'upstream'));
  }

  return {
    handle,
    connections,
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}
