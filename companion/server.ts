/**
 * @module Starts a companion: state directory, store, capture, API, live feed and proxy on one
 * loopback port. `startCompanion` is what the CLI and the tests call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { buildApp } from './app';
import { buildApi } from './api/routes';
import { DEFAULT_CAPTURE_QUEUE_BYTES } from './capture/channel';
import { CaptureControl } from './capture/control';
import { RateLimitState } from './store/ratelimit-state';
import type { CompanionContext, InflightExchange } from './context';
import { CaptureHost, type CaptureThread } from './pipeline/host';
import { loadPrices } from './pipeline/analysis';
import { createSink } from './pipeline/sink';
import { createLogger, type LogLevel, type Logger } from './lib/log';
import { tokenSource } from './lib/token';
import { readSettings } from './lib/settings';
import { LiveHub, type HubOptions } from './live/hub';
import { createUpgradeHandler } from './live/upgrade';
import { Profiles } from './proxy/profiles';
import { createRouter } from './proxy/router';
import { createWsRelay } from './proxy/ws-relay';
import { detectAuth } from './proxy/route';
import { headerPairsOf } from './http/headers';
import { recordUpgradeRefusal } from './capture/upgrade-refusal';
import { createDispatcher, DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamClientOptions } from './proxy/upstream-client';
import { createReports } from './reports';
import { Store } from './store/store';
import { DEFAULT_API_UPSTREAM, DEFAULT_CHATGPT_UPSTREAM, DEFAULT_MAX_STORE_BYTES, DEFAULT_PORT } from './defaults';

export interface CompanionOptions {
  home: string;
  /** 0 picks a free port (tests). */
  port?: number;
  host?: string;
  apiUpstream?: string;
  chatgptUpstream?: string;
  timeouts?: Partial<Omit<UpstreamClientOptions, 'env'>>;
  env?: NodeJS.ProcessEnv;
  logLevel?: LogLevel | 'silent';
  logger?: Logger;
  /** Largest request/response body decoded for capture. */
  maxCaptureBytes?: number;
  captureQueueBytes?: number;
  maxStoreBytes?: number;
  hub?: HubOptions;
  /** Relay Codex's Responses WebSocket (default); false answers upgrades with 426 (HTTP fallback). */
  websocket?: boolean;
  /** Largest WebSocket message relayed (default 64 MB); a bigger one closes both sides with 1009. */
  maxWebSocketMessageBytes?: number;
  /**
   * Where capture runs: `auto` (default) is the worker thread of the built companion, or this
   * thread over a message port when running from sources; `worker` forces a thread.
   */
  captureThread?: CaptureThread;
  /** Extra capture addon modules (URLs; each default-exports a CaptureAddon), run in the capture worker. */
  captureAddons?: string[];
  /** How long streams in flight may go on after a shutdown signal before they are cut (default 5 s). */
  drainMs?: number;
}

export interface Companion extends CompanionContext {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  token(): string;
  /** Resolves when capture has processed, stored and analysed everything forwarded so far. */
  idle(): Promise<void>;
  /** Stops accepting, lets streams in flight finish (up to `drainMs`), then closes. */
  close(): Promise<void>;
}

export async function startCompanion(opts: CompanionOptions): Promise<Companion> {
  const log = opts.logger ?? createLogger(opts.logLevel ?? 'info');
  const listenHost = opts.host ?? '127.0.0.1';
  const home = opts.home;
  const token = tokenSource(home);
  const store = Store.open({ home, log, maxBytes: opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES });
  const profiles = new Profiles(home);
  const rateLimits = RateLimitState.inHome(home);
  const inflight = new Map<string, InflightExchange>();
  const settings = readSettings(home);
  const maxCaptureBytes = opts.maxCaptureBytes ?? 32 * 1024 * 1024;
  const priceErrors = loadPrices(home).errors;
  // The capture worker's failures (addons, analysis) arrive with its stats; the channel counts drops.
  let host: CaptureHost | null = null;
  const captureStats = () => ({
    addonFailures: host?.stats.addonFailures ?? {},
    droppedChunks: host?.channel.droppedChunks ?? 0,
    analysisFailures: host?.stats.analysisFailures ?? 0,
    priceErrors: host?.stats.priceErrors.length ? host.stats.priceErrors : priceErrors,
  });
  const capture = new CaptureControl(home, () => {
    const s = store.stats();
    const c = captureStats();
    const addonFailures = Object.values(c.addonFailures).reduce((a, b) => a + b, 0);
    const last = s.lastWriteError?.message ?? host?.stats.lastFailure ?? null;
    return { count: s.writeErrors + s.lostRecords + addonFailures + c.droppedChunks + c.analysisFailures, last };
  });
  const reports = createReports(store);
  const hub = new LiveHub(
    {
      token,
      // Exchanges still streaming come first: a client connecting mid-stream sees them too.
      recentExchanges: (n) => [...[...inflight.values()].map((f) => f.summary).reverse(), ...store.list({ limit: n }).items].slice(0, n),
      usage: () => reports.live(),
      rateLimits: () => rateLimits.get(),
      profile: () => profiles.active(),
      capture: () => capture.state(),
    },
    log,
    opts.hub,
  );
  profiles.onChange((p) => hub.profileChanged(p));

  const captureHost = new CaptureHost(
    {
      home,
      maxCaptureBytes,
      configuredWindows: settings.contextWindows ?? {},
      capturing: !capture.paused,
      logLevel: opts.logLevel ?? 'info',
      addonModules: opts.captureAddons ?? [],
    },
    createSink({
      store,
      hub,
      rateLimits,
      inflight,
      liveUsage: () => reports.live(),
      wsTurn: (conn, open, turnId, clientMessages) => captureHost.channel.wsTurns.get(conn)?.(open, turnId, clientMessages),
    }),
    log,
    opts.captureThread ?? 'auto',
    opts.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES,
  );
  host = captureHost;
  const channel = captureHost.channel;
  capture.onChange((s) => {
    hub.captureChanged(s);
    channel.capturing(!s.paused);
  });

  const ctx: CompanionContext = {
    home,
    log,
    store,
    hub,
    profiles,
    rateLimits,
    capture,
    reports,
    inflight,
    liveRecord: (id) => captureHost.query({ q: 'record', id }),
    captureStats,
    token,
  };

  const dispatcher = createDispatcher({ ...DEFAULT_UPSTREAM_TIMEOUTS, ...opts.timeouts, env: opts.env });
  const router = createRouter({
    apiUpstream: opts.apiUpstream ?? DEFAULT_API_UPSTREAM,
    chatgptUpstream: opts.chatgptUpstream ?? DEFAULT_CHATGPT_UPSTREAM,
    profiles,
  });
  const app = buildApp({
    api: buildApi(ctx),
    forward: {
      router,
      dispatcher,
      channel,
      log,
      capturing: () => !capture.paused,
      shuttingDown: () => closing !== null,
    },
  });

  const relay =
    opts.websocket === false
      ? null
      : createWsRelay({
          router,
          env: opts.env,
          channel,
          log,
          maxPayload: opts.maxWebSocketMessageBytes ?? 64 * 1024 * 1024,
          connectTimeoutMs: opts.timeouts?.connectTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUTS.connectTimeoutMs,
          capturing: () => !capture.paused,
        });
  // A WebSocket chain lives on one upstream connection: a profile switch closes Codex's socket
  // at the next turn boundary, and Codex reconnects with full context on the new route.
  profiles.onChange((p) => {
    for (const conn of relay?.connections ?? []) if (conn.profileId !== p.id) conn.closeAtTurnBoundary(`profile switched to ${p.id}`);
  });
  const server = http.createServer(getRequestListener(app.fetch));
  const upgrades = createUpgradeHandler({
    hub,
    relay: relay?.handle,
    recordRefusal: (req, status) => {
      if (capture.paused) return;
      const route = {
        profileId: profiles.activeId,
        upstream: '',
        auth: detectAuth(headerPairsOf(req.headers)),
        modelRequested: null,
        modelSent: null,
      };
      recordUpgradeRefusal(channel, req, {
        upstreamUrl: '',
        route,
        status,
        message: `WebSocket refused by codex-devtools (--no-websocket)`,
      });
    },
  });
  server.on('upgrade', upgrades.handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_PORT, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  const shutdown = async () => {
    // Stop accepting; idle keep-alive sockets and live-feed clients go now; HTTP streams in flight
    // get `drainMs` to finish and WebSocket chains end at their next turn boundary; then the rest is cut.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    hub.close();
    upgrades.wss.close();
    for (const conn of relay?.connections ?? []) conn.closeAtTurnBoundary('codex-devtools is shutting down');
    // A keep-alive socket whose stream just finished is idle now: let it go too.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), opts.drainMs ?? 5000).unref()),
    ]);
    clearInterval(sweep);
    relay?.close();
    if (!drained) server.closeAllConnections();
    await closed;
    // Capture gets as long again to store what it has; a stuck capture never holds up the exit.
    await Promise.race([captureHost.idle(), new Promise((r) => setTimeout(r, opts.drainMs ?? 5000).unref())]);
    await dispatcher.close();
    await captureHost.close();
  };
  return {
    ...ctx,
    port,
    url: `http://${listenHost}:${port}`,
    token,
    idle: () => captureHost.idle(),
    close: () => (closing ??= shutdown()),
  };
}
