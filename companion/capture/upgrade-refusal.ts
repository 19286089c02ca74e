/**
 * @module Records a WebSocket upgrade on the proxy path that was not relayed (refused by the
 * upstream, the upstream unreachable, or refused here with --no-websocket) as an `other`
 * exchange: every request Codex sends through the companion is listed.
 */
import type { IncomingMessage } from 'node:http';
import type { Route } from '../protocol/exchange';
import { headerPairsOf } from '../proxy/headers';
import type { AddonManager } from './addons';
import { ExchangeFlow } from './flow';
import { newExchangeId } from './ids';

export interface RefusalFacts {
  upstreamUrl: string;
  route: Route;
  /** The status Codex got; null when no upstream answered. */
  status: number | null;
  message: string;
  maxCaptureBytes: number;
}

export function recordUpgradeRefusal(addons: AddonManager, req: IncomingMessage, f: RefusalFacts): Promise<void> {
  const u = new URL(req.url ?? '/', 'http://127.0.0.1');
  const flow = new ExchangeFlow(
    {
      id: newExchangeId(),
      transport: 'http',
      method: 'GET',
      path: u.pathname,
      query: u.search,
      upstreamUrl: f.upstreamUrl || null,
      requestHeaders: headerPairsOf(req.headers),
      route: f.route,
      maxCaptureBytes: f.maxCaptureBytes,
    },
    addons,
  );
  flow.setRequestBody(null);
  if (f.status === null) return flow.fail('upstream_error', { code: 'upstream_unreachable', message: f.message, upstreamCode: null });
  flow.setResponseHead(f.status, []);
  return flow.finishResponse();
}
