/**
 * @module WebSocket upgrades on the companion's port: the live feed at `/api/live` (extension
 * origins only, token in the hello) and Codex's Responses WebSocket on the proxy path.
 * Handled with `ws` directly on the server's upgrade event; `ws` and the feed's message schemas
 * load with the first client.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { isExtensionOrigin } from '../api/security';
import { describeError, type Logger } from '../lib/log';
import { onDemand } from '../lib/on-demand';
import { addressedToLoopback } from '../lib/loopback';
import { browserMark, browserRefusalBody } from '../proxy/browser-guard';
import { isProxyPath, targetPath } from '../proxy/paths';
import type { LiveHub } from './hub';

export interface UpgradeRoutes {
  hub: LiveHub;
  log: Logger;
  /** Handles a Codex upgrade on the proxy path; absent means "refuse with 426" (HTTP fallback). */
  relay?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Records a proxy-path upgrade answered here without reaching the upstream. */
  recordRefusal?: (req: IncomingMessage, status: number) => void;
}

function reply(socket: Duplex, status: number, reason: string, body = '', type = 'text/plain'): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export function createUpgradeHandler(routes: UpgradeRoutes) {
  const feed = onDemand(async () => {
    const [{ WebSocketServer }, { parseClientMessage }] = await Promise.all([import('ws'), import('../protocol/live')]);
    return { wss: new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 }), parse: parseClientMessage };
  });
  const handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!addressedToLoopback(req)) return reply(socket, 421, 'Misdirected Request', 'codex-devtools only answers loopback names.');
    const path = targetPath(req.url);
    const origin = req.headers.origin;
    if (path === '/api/live') {
      if (origin && !isExtensionOrigin(origin))
        return reply(socket, 403, 'Forbidden', 'Web pages may not open the codex-devtools live feed.');
      void feed.get().then(
        ({ wss, parse }) => wss.handleUpgrade(req, socket, head, (ws) => routes.hub.attach(ws, parse)),
        (err: unknown) => {
          routes.log.error(`live: could not load the live feed: ${describeError(err)}`);
          socket.destroy();
        },
      );
      return;
    }
    if (isProxyPath(path)) {
      const mark = browserMark(req);
      if (mark) return reply(socket, 403, 'Forbidden', browserRefusalBody(mark), 'application/json');
      if (routes.relay) return routes.relay(req, socket, head);
      // Refused: Codex then falls back to HTTP for the rest of the session.
      reply(socket, 426, 'Upgrade Required');
      routes.recordRefusal?.(req, 426);
      return;
    }
    reply(socket, 404, 'Not Found');
  };
  return { handler, close: () => feed.loaded()?.wss.close() };
}
