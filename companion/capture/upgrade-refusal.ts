/**
 * @module Records a WebSocket upgrade on the proxy path that was not relayed (refused by the
 * upstream, the upstream unreachable, or refused here with --no-websocket) as an `other`
 * exchange: every request Codex sends through the companion is listed.
 */
import type { IncomingMessage } from 'node:http';
import type { Route } from '../protocol/exchange';
import { headerPairsOf } from '../http/headers';
import type { CaptureChannel } from './channel';

export interface RefusalFacts {
  upstreamUrl: string;
  route: Route;
  /** The status Codex got; null when no upstream answered. */
  status: number | null;
  message: string;
}

export function recordUpgradeRefusal(channel: CaptureChannel, req: IncomingMessage, f: RefusalFacts): void {
  const u = new URL(req.url ?? '/', 'http://127.0.0.1');
  const capture = channel.open({
    transport: 'http',
    method: 'GET',
    path: u.pathname,
    query: u.search,
    upstreamUrl: f.upstreamUrl || null,
    requestHeaders: headerPairsOf(req.headers),
    route: f.route,
  });
  capture.requestEnd();
  if (f.status === null) return capture.fail('upstream_error', { code: 'upstream_unreachable', message: f.message, upstreamCode: null });
  capture.head(f.status, [], Date.now());
  capture.end();
}
