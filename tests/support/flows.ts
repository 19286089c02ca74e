/**
 * Replays recorded traffic through the real capture stages (the same flow driver the capture
 * worker uses), so tests check records exactly as live capture would build them. Test-only.
 */
import { AddonManager, type CaptureAddon } from '../../companion/capture/addons';
import { FlowDriver } from '../../companion/capture/driver';
import type { FlowInit } from '../../companion/capture/flow';
import { newExchangeId } from '../../companion/capture/ids';
import { createLogger } from '../../companion/lib/log';
import type { ExchangeRecord, Route } from '../../companion/protocol/exchange';
import type { HeaderPairs } from '../../companion/http/headers';
import { fixtureSse, type HttpFixture } from './fixtures';

export interface ReplayOptions {
  /** How to cut the response bytes; whole by default. */
  chunks?: (buf: Buffer) => Uint8Array[];
  addons?: CaptureAddon[];
  /** Replace the response status/headers/bytes. */
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBytes?: Buffer;
  startedAt?: number;
  id?: string;
  route?: Partial<Route>;
}

export const DEFAULT_ROUTE: Route = {
  profileId: 'default',
  upstream: 'https://api.openai.com/v1',
  auth: 'apikey',
  modelRequested: null,
  modelSent: null,
};

/** A JSON POST to `/v1/responses` as the forward path opens its capture (capture/channel.ts `open`). */
export const RESPONSES_POST: Omit<FlowInit, 'id' | 'maxCaptureBytes' | 'startedAt'> = {
  transport: 'http',
  method: 'POST',
  path: '/v1/responses',
  query: '',
  upstreamUrl: `${DEFAULT_ROUTE.upstream}/responses`,
  requestHeaders: [['content-type', 'application/json']],
  route: DEFAULT_ROUTE,
};

export function lowerPairs(h: Record<string, string>): HeaderPairs {
  return Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]);
}

/** Runs a request/response pair through ExchangeFlow and returns the finished record. */
export async function replay(
  request: { method?: string; url?: string; headers: Record<string, string>; body: unknown },
  response: { status: number; headers: Record<string, string>; bytes: Buffer },
  opts: ReplayOptions = {},
): Promise<ExchangeRecord> {
  const addons = new AddonManager(createLogger('silent'));
  for (const a of opts.addons ?? []) addons.add(a);
  const url = new URL(request.url ?? '/v1/responses', 'http://127.0.0.1');
  const route = { ...DEFAULT_ROUTE, ...opts.route };
  const flow = new FlowDriver(
    {
      id: opts.id ?? newExchangeId(),
      transport: 'http',
      method: request.method ?? 'POST',
      path: url.pathname,
      query: url.search,
      upstreamUrl: route.upstream + url.pathname.replace(/^\/v1/, ''),
      requestHeaders: lowerPairs(request.headers).filter(([k]) => k !== 'content-length'),
      route,
      maxCaptureBytes: 64 * 1024 * 1024,
      startedAt: opts.startedAt,
    },
    addons,
  );
  flow.request(request.body === undefined ? null : Buffer.from(JSON.stringify(request.body)));
  flow.responseHead(opts.status ?? response.status, lowerPairs(opts.responseHeaders ?? response.headers));
  const bytes = opts.responseBytes ?? response.bytes;
  for (const c of opts.chunks ? opts.chunks(bytes) : [bytes]) flow.responseBytes(c);
  await flow.finish();
  return flow.flow.toRecord();
}

/** Replays one recorded fixture (its request and the SSE or JSON the fake answered). */
export function replayFixture(f: HttpFixture, opts: ReplayOptions = {}): Promise<ExchangeRecord> {
  const r = f.response_sent_by_fake_upstream;
  const isSse = Array.isArray(r.sse_events);
  const bytes = isSse ? fixtureSse(f) : Buffer.from(JSON.stringify(r.json ?? null));
  const headers = { ...r.headers, 'content-type': isSse ? 'text/event-stream' : (r.headers['content-type'] ?? 'application/json') };
  return replay(f.request, { status: r.status, headers, bytes }, opts);
}

/** A record without what depends on the clock or on the framing's extra bytes, to compare captures of the same response. */
export function stable(r: ExchangeRecord) {
  return {
    ...r,
    id: '',
    startedAt: 0,
    endedAt: 0,
    firstByteAt: 0,
    responseBytes: 0,
    rateLimits: r.rateLimits && { ...r.rateLimits, observedAt: 0 },
    response: { ...r.response, events: r.response.events.map(({ t: _t, ...e }) => e) },
  };
}
