/**
 * @module Starts a companion: state directory, store, capture, API, live feed and proxy on one
 * loopback port. `startCompanion` is what the CLI and the tests call.
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createForwardHandler } from './proxy/forward';
import { isProxyPath, targetPath } from './proxy/paths';
import { DEFAULT_CAPTURE_QUEUE_BYTES } from './capture/channel';
import { CaptureControl } from './capture/control';
import { RateLimitState } from './store/ratelimit-state';
import type { CompanionContext, InflightExchange } from './context';
import { CaptureHost, type CaptureThread } from './pipeline/host';
import { createSink } from './pipeline/sink';
import { createLogger, describeError, type LogLevel, type Logger } from './lib/log';
import { addressedToLoopback, FOREIGN_HOST_BODY } from './lib/loopback';
import { INTERNAL_ERROR_BODY } from './lib/internal-error';
import { onDemand } from './lib/on-demand';
import { probe } from './lib/probe';
import { acquireStateLock, type StateLock } from './lib/state-lock';
import { tokenSource } from './lib/token';
import { readSettings } from './lib/settings';
import { DEFAULT_SNAPSHOT_SIZE, LiveHub, type HubOptions } from './live/hub';
import { createUpgradeHandler } from './live/upgrade';
import { Profiles } from './proxy/profiles';
import { createRouter } from './proxy/router';
import { detectAuth } from './proxy/route';
import { headerPairsOf } from './http/headers';
import { recordUpgradeRefusal } from './capture/upgrade-refusal';
import { createDispatcher, DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamClientOptions } from './proxy/upstream-client';
import { COMPANION_VERSION } from './version';
import { historyClient, Mirror } from './pipeline/history-client';
import type { HistoryMirror } from './pipeline/history';
import { createImportRunner } from './store/import/runner';
import { watchCodexHomes } from './store/import/watch';
import { resolveOtlpConfig, type OtlpSettings } from './pipeline/otlp/config';
import type { OtlpExport } from './pipeline/otlp/exporter';
import { DEFAULT_API_UPSTREAM, DEFAULT_CHATGPT_UPSTREAM, DEFAULT_MAX_STORE_BYTES, DEFAULT_PORT } from './defaults';

/** How long moving a 0.1.0 history into the database may take before it is reported as failed. */
const MIGRATION_TIMEOUT_MS = 30 * 60_000;
/** How long the capture worker may take to start and open the store. */
const STARTUP_TIMEOUT_MS = 60_000;
/** How long a history read waits for capture to store what was already forwarded. */
const CAPTURE_SETTLE_MS = 1000;

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
  /** Codex homes whose rollout files are followed and imported as Codex writes them. */
  watchCodexHomes?: string[];
  /** How often the watched homes are scanned (default 1 s). */
  watchIntervalMs?: number;
  /** OTLP export (`start --otlp-*`), merged over the OTEL_* variables of `env`; off unless configured. */
  otlp?: OtlpSettings;
  /**
   * Where capture runs: `auto` (default) is the worker thread of the built companion, or this
   * thread over a message port when running from sources; `worker` forces a thread.
   */
  captureThread?: CaptureThread;
  /** Extra capture addon modules (URLs; each default-exports a CaptureAddon), run in the capture worker. */
  captureAddons?: string[];
  /** How long streams in flight may go on after a shutdown signal before they are cut (default 5 s). */
  drainMs?: number;
  /** How long an API request waits for the capture worker's history before a 503 (default 10 s). */
  historyTimeoutMs?: number;
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
  const host = opts.host ?? '127.0.0.1';
  const home = opts.home;
  // Before anything touches the state directory: a second companion on it must not write there.
  const lock = await acquireStateLock(home, COMPANION_VERSION, async (held) => (await probe(held.port)).kind === 'companion');
  try {
    return await startLocked(opts, log, host, home, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function startLocked(opts: CompanionOptions, log: Logger, host: string, home: string, lock: StateLock): Promise<Companion> {
  const token = tokenSource(home);
  const otlp = resolveOtlpConfig(opts.otlp, opts.env ?? process.env);
  const profiles = new Profiles(home);
  const rateLimits = RateLimitState.inHome(home);
  let exporter: OtlpExport | null = null;
  const inflight = new Map<string, InflightExchange>();
  const settings = readSettings(home);
  const maxCaptureBytes = opts.maxCaptureBytes ?? 32 * 1024 * 1024;
  // The capture worker's failures (addons, analysis) arrive with its stats; the channel counts drops.
  let host_: CaptureHost | null = null;
  const captureStats = () => ({
    addonFailures: host_?.stats.addonFailures ?? {},
    droppedChunks: host_?.channel.droppedChunks ?? 0,
    analysisFailures: host_?.stats.analysisFailures ?? 0,
    // The worker reads prices.json (and follows its edits); its first figures arrive before the port opens.
    priceErrors: host_?.stats.priceErrors ?? [],
  });
  const capture = new CaptureControl(home, () => {
    const s = host_?.stats.store ?? { pendingWrites: 0, lostRecords: 0, writeFailing: false, lastWriteError: null };
    const c = captureStats();
    const addonFailures = Object.values(c.addonFailures).reduce((a, b) => a + b, 0);
    // Writes that failed count while they wait: once they are on disk, they are no error anymore.
    const storeLast = s.writeFailing || s.lostRecords > 0 ? (s.lastWriteError?.message ?? null) : null;
    const last = storeLast ?? host_?.stats.lastFailure ?? null;
    return { count: s.pendingWrites + s.lostRecords + addonFailures + c.droppedChunks + c.analysisFailures, last, ...exporter?.problems() };
  });
  let mirror: Mirror | null = null;
  const hub = new LiveHub(
    {
      token,
      // Exchanges still streaming come first: a client connecting mid-stream sees them too.
      recentExchanges: (n) => {
        const streaming = [...inflight.values()].map((f) => f.summary).reverse();
        // A streaming exchange also has its begun row in the store: it is listed once, as streaming.
        const ids = new Set(streaming.map((s) => s.id));
        return [...streaming, ...(mirror?.recent ?? []).filter((s) => !ids.has(s.id))].slice(0, n);
      },
      usage: () => mirror!.usage,
      rateLimits: () => rateLimits.get(),
      profile: () => profiles.active(),
      capture: () => capture.state(),
      streaming: () => inflight.size,
    },
    log,
    opts.hub,
  );
  profiles.onChange((p) => hub.profileChanged(p));

  // Loaded only when configured: a companion without export never loads the OpenTelemetry SDK.
  const onFailure = () => hub.captureChanged(capture.state());
  exporter = otlp
    ? await (
        await import('./pipeline/otlp/exporter')
      ).startOtlpExport(otlp, { record: (id) => store.get(id), log, version: COMPANION_VERSION, onFailure })
    : null;
  const exportStatus = () => exporter?.status() ?? null;

  const captureHost = new CaptureHost(
    {
      home,
      maxCaptureBytes,
      configuredWindows: settings.contextWindows ?? {},
      capturing: !capture.paused,
      logLevel: opts.logLevel ?? 'info',
      addonModules: opts.captureAddons ?? [],
      maxStoreBytes: opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
      // Imports name what they added only when the export sends it.
      announceImports: otlp?.includeImported === true && otlp.traces !== null,
    },
    createSink({
      hub,
      rateLimits,
      inflight,
      mirror: () => mirror,
      wsTurn: (conn, open, turnId, clientMessages) => captureHost.channel.wsTurns.get(conn)?.(open, turnId, clientMessages),
      // The export reads the stored, analysed record.
      stored: (exchange) => exporter?.exchangeStored(exchange),
      imported: (ids, last) => exporter?.imported(ids, last),
    }),
    log,
    opts.captureThread ?? 'auto',
    opts.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES,
    opts.historyTimeoutMs,
  );
  host_ = captureHost;
  const channel = captureHost.channel;
  const snapshotSize = opts.hub?.snapshotSize ?? DEFAULT_SNAPSHOT_SIZE;
  const store = historyClient(
    (op, args) => captureHost.history(op, args),
    opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
    async () => mirror?.replace(await store.mirror(snapshotSize)),
  );
  // The history opens in the worker (loading the store may take a while); the feed's snapshot needs its first state.
  mirror = new Mirror(snapshotSize, (await captureHost.history('mirror', [snapshotSize], STARTUP_TIMEOUT_MS)) as HistoryMirror);
  capture.onChange((s) => {
    hub.captureChanged(s);
    channel.capturing(!s.paused);
  });

  const imports = createImportRunner(
    (sources) => store.import(sources),
    () => captureHost.idle(),
    (report) => {
      // As a capture's readings do: an imported reading older than the live state's changes nothing.
      if (report.rateLimits) hub.rateLimitsUpdated(rateLimits.update(report.rateLimits));
      hub.reset('history was imported');
    },
  );

  const ctx: CompanionContext = {
    home,
    log,
    store,
    hub,
    profiles,
    rateLimits,
    capture,
    inflight,
    imports,
    liveRecord: (id) => captureHost.query({ q: 'record', id }),
    captureStats,
    captureSettled: () => Promise.race([captureHost.idle(), new Promise<void>((r) => setTimeout(r, CAPTURE_SETTLE_MS).unref())]),
    token,
    exportStatus,
  };

  const timeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS, ...opts.timeouts };
  const dispatcher = await createDispatcher({ ...timeouts, env: opts.env });
  const router = createRouter({
    apiUpstream: opts.apiUpstream ?? DEFAULT_API_UPSTREAM,
    chatgptUpstream: opts.chatgptUpstream ?? DEFAULT_CHATGPT_UPSTREAM,
    profiles,
  });
  // The API (Hono, its routes and their schemas) loads with the first request that is not Codex's.
  const app = onDemand(async () => (await import('./app')).appListener(ctx));
  const forward = createForwardHandler({
    router,
    dispatcher,
    channel,
    log,
    capturing: () => !capture.paused,
    shuttingDown: () => closing !== null,
    bodyTimeoutMs: timeouts.bodyTimeoutMs,
  });

  // `ws` loads with Codex's first WebSocket.
  const relay = onDemand(async () =>
    (await import('./proxy/ws-relay')).createWsRelay({
      router,
      env: opts.env,
      channel,
      log,
      maxPayload: opts.maxWebSocketMessageBytes ?? 64 * 1024 * 1024,
      connectTimeoutMs: opts.timeouts?.connectTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUTS.connectTimeoutMs,
      capturing: () => !capture.paused,
    }),
  );
  const relayUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    relay.get().then(
      (r) => r.handle(req, socket, head),
      (err: unknown) => {
        log.error(`relay: could not load the WebSocket relay: ${describeError(err)}`);
        socket.destroy();
      },
    );
  // A WebSocket chain lives on one upstream connection: a profile switch closes Codex's socket
  // at the next turn boundary, and Codex reconnects with full context on the new route.
  profiles.onChange((p) => {
    for (const conn of relay.loaded()?.connections ?? [])
      if (conn.profileId !== p.id) conn.closeAtTurnBoundary(`profile switched to ${p.id}`);
  });
  // The Host check runs first: Hono would build a URL from it (and answer 400 or throw on a value
  // the URL parser rejects). Proxy paths then go straight to forwarding, the rest to the API.
  const server = http.createServer((req, res) => {
    if (!addressedToLoopback(req)) {
      return void res.writeHead(421, { 'content-type': 'application/json', connection: 'close' }).end(FOREIGN_HOST_BODY);
    }
    if (isProxyPath(targetPath(req.url))) return forward(req, res);
    app.get().then(
      (listener) => void listener(req, res),
      (err: unknown) => {
        log.error(`api: could not load the API: ${describeError(err)}`);
        res.writeHead(500, { 'content-type': 'application/json' }).end(INTERNAL_ERROR_BODY);
      },
    );
  });
  const upgrades = createUpgradeHandler({
    hub,
    log,
    relay: opts.websocket === false ? undefined : relayUpgrade,
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
    server.listen(opts.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const watcher = opts.watchCodexHomes?.length ? watchCodexHomes(opts.watchCodexHomes, imports, log, opts.watchIntervalMs) : null;
  lock.setPort(port);
  // A 0.1.0 history is migrated once the companion listens: Codex reaches its model meanwhile.
  const migrated = captureHost
    .history('migrateLegacy', [], MIGRATION_TIMEOUT_MS)
    .then(async (r) => {
      if ((r as { migrated: number }).migrated === 0) return;
      mirror?.replace(await store.mirror(snapshotSize));
      hub.reset('the 0.1.0 history was migrated');
    })
    .catch((err) =>
      log.error(`store: the 0.1.0 history could not be migrated now (${describeError(err)}); it is kept and tried again on the next start`),
    );
  let closing: Promise<void> | null = null;
  const shutdown = async () => {
    watcher?.close();
    await watcher?.settled();
    // Stop accepting; idle keep-alive sockets and live-feed clients go now; HTTP streams in flight
    // get `drainMs` to finish and WebSocket chains end at their next turn boundary; then the rest is cut.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    hub.close();
    upgrades.close();
    for (const conn of relay.loaded()?.connections ?? []) conn.closeAtTurnBoundary('codex-devtools is shutting down');
    // A keep-alive socket whose stream just finished is idle now: let it go too.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), opts.drainMs ?? 5000).unref()),
    ]);
    clearInterval(sweep);
    relay.loaded()?.close();
    if (!drained) server.closeAllConnections();
    await closed;
    // Capture gets as long again to store what it has; a stuck capture never holds up the exit.
    await Promise.race([captureHost.idle(), new Promise((r) => setTimeout(r, opts.drainMs ?? 5000).unref())]);
    await exporter?.shutdown();
    await dispatcher.close();
    await captureHost.close(opts.drainMs ?? 5000);
    lock.release();
  };
  return {
    ...ctx,
    port,
    url: `http://${host}:${port}`,
    token,
    idle: async () => {
      await migrated;
      await captureHost.idle();
      await watcher?.settled();
    },
    close: () => (closing ??= shutdown()),
  };
}
