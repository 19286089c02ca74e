/**
 * @module Starts a companion: state directory, store, capture, API, live feed and proxy on one
 * loopback port. `startCompanion` is what the CLI and the tests call.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { buildApp } from './app';
import { AddonManager } from './capture/addons';
import { CaptureQueue, DEFAULT_CAPTURE_QUEUE_BYTES } from './capture/queue';
import { createLogger, type LogLevel, type Logger } from './lib/log';
import { loadOrCreateToken } from './lib/token';
import { credentialRoute, type Router } from './proxy/route';
import { createDispatcher, DEFAULT_UPSTREAM_TIMEOUTS, type UpstreamClientOptions } from './proxy/upstream-client';
import { Store } from './store/store';
import { COMPANION_VERSION } from './version';

export const DEFAULT_PORT = 8642;
export const DEFAULT_API_UPSTREAM = 'https://api.openai.com/v1';
export const DEFAULT_CHATGPT_UPSTREAM = 'https://chatgpt.com/backend-api/codex';

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
}

export interface Companion {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  token: string;
  store: Store;
  addons: AddonManager;
  queue: CaptureQueue;
  /** Resolves when capture has processed and stored everything forwarded so far. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startCompanion(opts: CompanionOptions): Promise<Companion> {
  const log = opts.logger ?? createLogger(opts.logLevel ?? 'info');
  const host = opts.host ?? '127.0.0.1';
  const token = loadOrCreateToken(opts.home);
  const store = Store.open({ home: opts.home, log, maxBytes: opts.maxStoreBytes });
  const addons = new AddonManager(log);
  const queue = new CaptureQueue(opts.captureQueueBytes ?? DEFAULT_CAPTURE_QUEUE_BYTES);
  const dispatcher = createDispatcher({ ...DEFAULT_UPSTREAM_TIMEOUTS, ...opts.timeouts, env: opts.env });
  const apiUpstream = opts.apiUpstream ?? DEFAULT_API_UPSTREAM;
  const chatgptUpstream = opts.chatgptUpstream ?? DEFAULT_CHATGPT_UPSTREAM;
  const router: Router = { resolve: (req) => credentialRoute({ apiUpstream, chatgptUpstream }, req) };

  addons.add({
    name: 'store',
    response: (flow) => store.append(flow.toRecord()),
    error: (flow) => store.append(flow.toRecord()),
  });

  const api = new Hono();
  api.get('/health', (c) => c.json({ ok: true, version: COMPANION_VERSION }));

  const app = buildApp({
    api,
    forward: { router, dispatcher, addons, queue, log, maxCaptureBytes: opts.maxCaptureBytes ?? 32 * 1024 * 1024, capturing: () => true },
  });

  const server = http.createServer(getRequestListener(app.fetch));
  server.on('upgrade', (req, socket) => {
    // Until the WebSocket relay exists, refuse upgrades so Codex falls back to HTTP for the session.
    socket.end('HTTP/1.1 426 Upgrade Required\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  const shutdown = async () => {
    await queue.idle();
    await store.flush();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await dispatcher.close();
  };
  return {
    port,
    url: `http://${host}:${port}`,
    token,
    store,
    addons,
    queue,
    idle: async () => {
      await queue.idle();
      await store.flush();
    },
    close: () => (closing ??= shutdown()),
  };
}
