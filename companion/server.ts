/**
 * @module Starts a companion: state directory, store, capture, API, live feed and proxy on one
 * loopback port. `startCompanion` is what the CLI and the tests call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { buildApp } from './app';
import { buildApi } from './api/routes';
import { AddonManager } from './capture/addons';
import { CaptureControl } from './capture/control';
import { CaptureQueue, DEFAULT_CAPTURE_QUEUE_BYTES } from './capture/queue';
import { RateLimitState } from './capture/ratelimit-state';
import { installCaptureAddons } from './capture/wiring';
import type { ExchangeFlow } from './capture/flow';
import { AnalysisStep } from './capture/analysis-step';
import type { CompanionContext } from './context';
import { createLogger, type LogLevel, type Logger } from './lib/log';
import { addressedToLoopback, FOREIGN_HOST_BODY } from './lib/loopback';
import { probe } from './lib/probe';
import { acquireStateLock, type StateLock } from './lib/state-lock';
import { tokenSource } from './lib/token';
import { readSettings } from './lib/settings';
import { LiveHub, type HubOptions } from './live/hub';
import { createUpgradeHandler } from './live/upgrade';
import { Profiles } from './proxy/profiles';
import { createRouter } from './proxy/router';
import { createWsRelay } from './proxy/ws-relay';
import { detectAuth } from './proxy/route';
import { headerPairsOf } from './proxy/headers';
import { recordUpgradeRefusal } from './capture/upgrade-refusal';
import { createDispatcher, DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamClientOptions } from './proxy/upstream-client';
import { createReports } from './reports';
import { COMPANION_VERSION } from './version';
import { Store } from './store/store';
import { createImportRunner } from './store/import/runner';
import { watchCodexHomes } from './store/import/watch';
import { resolveOtlpConfig, type OtlpSettings } from './pipeline/otlp/config';
import type { OtlpExport } from './pipeline/otlp/exporter';
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
  /** Codex homes whose rollout files are followed and imported as Codex writes them. */
  watchCodexHomes?: string[];
  /** How often the watched homes are scanned (default 1 s). */
  watchIntervalMs?: number;
  /** OTLP export (`start --otlp-*`), merged over the OTEL_* variables of `env`; off unless configured. */
  otlp?: OtlpSettings;
}

export interface Companion extends CompanionContext {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  token(): string;
  /** Resolves when capture has processed, stored and analysed everything forwarded so far. */
  idle(): Promise<void>;
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
  const store = Store.open({ home, log, maxBytes: opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES });
  const addons = new AddonManager(log);
  const queue = new CaptureQueue(opts.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES);
  const profiles = new Profiles(home);
  const rateLimits = RateLimitState.inHome(home);
  const inflight = new Map<string, ExchangeFlow>();
  const analysis = new AnalysisStep(store, log, home, readSettings(home).contextWindows);
  let exporter: OtlpExport | null = null;
  const capture = new CaptureControl(home, () => {
    const s = store.stats();
    const addonFailures = [...addons.failures.values()].reduce((a, b) => a + b, 0);
    // Writes that failed count while they wait: once they are on disk, they are no error anymore.
    const storeLast = s.writeFailing || s.lostRecords > 0 ? (s.lastWriteError?.message ?? null) : null;
    const last = storeLast ?? addons.lastFailure?.message ?? analysis.lastFailure ?? null;
    const count = s.pendingWrites + s.lostRecords + addonFailures + queue.droppedChunks + analysis.failures;
    return { count, last, ...exporter?.problems() };
  });
  const reports = createReports(store);
  const hub = new LiveHub(
    {
      token,
      // Exchanges still streaming come first: a client connecting mid-stream sees them too.
      recentExchanges: (n) =>
        [...[...inflight.values()].map((f) => f.toSummary()).reverse(), ...store.list({ limit: n }).items].slice(0, n),
      usage: () => reports.live(),
      rateLimits: () => rateLimits.get(),
      profile: () => profiles.active(),
      capture: () => capture.state(),
    },
    log,
    opts.hub,
  );
  profiles.onChange((p) => hub.profileChanged(p));
  capture.onChange((s) => hub.captureChanged(s));

  const imports = createImportRunner(
    { store, prices: analysis.prices.table, inflightResponseIds: () => [...inflight.values()].map((f) => f.assembler.responseId) },
    async () => {
      await queue.idle();
      await addons.idle();
    },
    () => hub.reset('history was imported'),
  );
  // Loaded only when configured: a companion without export never loads the OpenTelemetry SDK.
  const onFailure = () => hub.captureChanged(capture.state());
  exporter = otlp
    ? await (
        await import('./pipeline/otlp/exporter')
      ).startOtlpExport(otlp, { record: (id) => store.get(id), log, version: COMPANION_VERSION, onFailure })
    : null;
  const exportStatus = () => exporter?.status() ?? null;
  const ctx: CompanionContext = {
    home,
    log,
    store,
    hub,
    profiles,
    rateLimits,
    capture,
    addons,
    queue,
    reports,
    analysis,
    inflight,
    imports,
    token,
    exportStatus,
  };
  installCaptureAddons(ctx, analysis, () => reports.live());
  if (exporter) addons.add(exporter.addon);

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
      addons,
      queue,
      log,
      maxCaptureBytes: opts.maxCaptureBytes ?? 32 * 1024 * 1024,
      capturing: () => !capture.paused,
    },
  });

  const maxCaptureBytes = opts.maxCaptureBytes ?? 32 * 1024 * 1024;
  const relay =
    opts.websocket === false
      ? null
      : createWsRelay({
          router,
          env: opts.env,
          addons,
          log,
          maxCaptureBytes,
          maxPayload: opts.maxWebSocketMessageBytes ?? 64 * 1024 * 1024,
          connectTimeoutMs: opts.timeouts?.connectTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUTS.connectTimeoutMs,
          capturing: () => !capture.paused,
          onRateLimits: (r) => hub.rateLimitsUpdated(rateLimits.update(r)),
        });
  // A WebSocket chain lives on one upstream connection: a profile switch closes Codex's socket
  // at the next turn boundary, and Codex reconnects with full context on the new route.
  profiles.onChange((p) => {
    for (const conn of relay?.connections ?? []) if (conn.profileId !== p.id) conn.closeAtTurnBoundary(`profile switched to ${p.id}`);
  });
  // The Host check runs before the request is handed to Hono, which would build a URL from it
  // (and answer 400 or throw on a value the URL parser rejects).
  const listener = getRequestListener(app.fetch);
  const server = http.createServer((req, res) => {
    if (addressedToLoopback(req)) return void listener(req, res);
    res.writeHead(421, { 'content-type': 'application/json', connection: 'close' }).end(FOREIGN_HOST_BODY);
  });
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
      void recordUpgradeRefusal(addons, req, {
        upstreamUrl: '',
        route,
        status,
        message: `WebSocket refused by codex-devtools (--no-websocket)`,
        maxCaptureBytes,
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
  let closing: Promise<void> | null = null;
  const shutdown = async () => {
    watcher?.close();
    await watcher?.settled();
    hub.close();
    relay?.close();
    upgrades.wss.close();
    await queue.idle();
    await addons.idle();
    await exporter?.shutdown();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await dispatcher.close();
    await analysis.close();
    store.close();
    lock.release();
  };
  return {
    ...ctx,
    port,
    url: `http://${host}:${port}`,
    token,
    idle: async () => {
      await queue.idle();
      await addons.idle();
      await watcher?.settled();
    },
    close: () => (closing ??= shutdown()),
  };
}
