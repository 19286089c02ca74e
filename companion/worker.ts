/**
 * @module The capture worker thread: owns capture (request decoding and identity, SSE and
 * WebSocket parsing, assembly), the addons (live progress, nicknames, store hand-off) and the
 * analysis, so none of that shares the event loop that forwards Codex's bytes. The main thread
 * talks to it over one message port (capture/messages.ts). `serve` also runs on a port in the
 * main thread when the companion runs from its TypeScript sources without a worker (tests).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { AddonManager, type CaptureAddon } from './capture/addons';
import type { Call, FromWorker, ToWorker, WorkerConfig } from './capture/messages';
import { CaptureRuntime } from './capture/runtime';
import type { Logger } from './lib/log';
import type { ExchangeRecord, ExchangeSummary } from './protocol/exchange';
import { AnalysisEngine } from './pipeline/analysis';
import { liveAddon } from './pipeline/live';
import { nicknamesAddon } from './pipeline/nicknames';
import { storeAddon } from './pipeline/store';

/** The port `serve` speaks on: a worker's parentPort, or one end of a MessageChannel. */
export type Port = Pick<MessagePort, 'postMessage' | 'on'>;

export async function serve(port: Port, config: WorkerConfig): Promise<CaptureRuntime> {
  const post = (m: FromWorker) => {
    // Bytes never travel back, so nothing needs transferring.
    port.postMessage(m);
  };
  const log: Logger = {
    debug: (message) => post({ t: 'log', level: 'debug', message }),
    info: (message) => post({ t: 'log', level: 'info', message }),
    warn: (message) => post({ t: 'log', level: 'warn', message }),
    error: (message) => post({ t: 'log', level: 'error', message }),
  };
  let next = 1;
  const waiting = new Map<number, (v: unknown) => void>();
  const call = <T>(c: Call): Promise<T> =>
    new Promise((resolve) => {
      const n = next++;
      waiting.set(n, resolve as (v: unknown) => void);
      post({ t: 'call', n, c });
    });
  const analysis = new AnalysisEngine(
    {
      threadSummaries: (threadId) => call<ExchangeSummary[]>({ c: 'threadSummaries', threadId }),
      record: (id) => call<ExchangeRecord | null>({ c: 'record', id }),
    },
    log,
    config.home,
    config.configuredWindows,
  );
  const addons = new AddonManager(log);
  const stats = () =>
    post({
      t: 'stats',
      stats: {
        addonFailures: Object.fromEntries(addons.failures),
        lastFailure: addons.lastFailure?.message ?? analysis.lastFailure ?? null,
        analysisFailures: analysis.failures,
        priceErrors: analysis.prices.errors,
      },
    });
  const runtime = new CaptureRuntime(addons, post, { maxCaptureBytes: config.maxCaptureBytes, capturing: config.capturing });
  // Order matters: a nickname is applied before the exchange is announced or stored.
  addons.add(nicknamesAddon(post));
  addons.add(liveAddon(post));
  addons.add(storeAddon(post, analysis, stats));
  for (const m of config.addonModules) addons.add(((await import(m)) as { default: CaptureAddon }).default);
  port.on('message', (m: ToWorker) => {
    if (m.t === 'reply') {
      waiting.get(m.n)?.(m.value);
      waiting.delete(m.n);
      return;
    }
    try {
      runtime.handle(m);
    } catch (err) {
      // A capture bug must not stop the worker: the exchange is lost to capture, forwarding is unaffected.
      log.error(`capture worker: ${m.t} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  stats();
  return runtime;
}

const data = workerData as { codexDevtoolsCapture?: WorkerConfig } | null;
if (parentPort && data?.codexDevtoolsCapture) void serve(parentPort, data.codexDevtoolsCapture);
