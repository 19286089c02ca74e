/**
 * @module The capture worker thread: owns capture (request decoding and identity, SSE and
 * WebSocket parsing, assembly), the addons (live progress, nicknames, storage), the analysis and
 * the history (the store and what is computed from it), so none of that shares the event loop
 * that forwards Codex's bytes. The main thread talks to it over one message port
 * (capture/messages.ts). `serve` also runs on a port in the main thread when the companion runs
 * from its TypeScript sources without a worker (tests).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { AddonManager, type CaptureAddon } from './capture/addons';
import type { FromWorker, ToWorker, WorkerConfig, WorkerStats } from './capture/messages';
import { CaptureRuntime } from './capture/runtime';
import { describeError, type Logger } from './lib/log';
import { engineGc, IdleCollector } from './lib/idle-collect';
import { yieldToForwarding } from './lib/thread-priority';
import { AnalysisEngine, storeReads } from './pipeline/analysis';
import { historyOps, type HistoryOp } from './pipeline/history';
import { liveAddon } from './pipeline/live';
import { nicknamesAddon } from './pipeline/nicknames';
import { watchPrices } from './pipeline/prices-watch';
import { Recompute } from './pipeline/recompute';
import { storeAddon } from './pipeline/store';
import { Store } from './store/store';

/** The port `serve` speaks on: a worker's parentPort, or one end of a MessageChannel. */
export type Port = Pick<MessagePort, 'postMessage' | 'on'>;

/** How often the store's figures are re-sent while nothing is written (a failed write may recover). */
const STATS_INTERVAL_MS = 1000;

export async function serve(port: Port, config: WorkerConfig): Promise<CaptureRuntime> {
  // What a turn of this loop posts goes as one message, as the main thread's do (pipeline/host.ts):
  // an exchange's announcements and acknowledgements each cost the forwarding thread a message
  // event. Bytes never travel back, so nothing needs transferring.
  let outbox: FromWorker[] = [];
  const flush = () => {
    const out = outbox;
    outbox = [];
    port.postMessage(out.length === 1 ? out[0] : { t: 'batch', messages: out });
  };
  const post = (m: FromWorker) => {
    outbox.push(m);
    if (outbox.length === 1) setImmediate(flush);
  };
  const log: Logger = {
    debug: (message) => post({ t: 'log', level: 'debug', message }),
    info: (message) => post({ t: 'log', level: 'info', message }),
    warn: (message) => post({ t: 'log', level: 'warn', message }),
    error: (message) => post({ t: 'log', level: 'error', message }),
  };
  const store = Store.open({ home: config.home, log, maxBytes: config.maxStoreBytes });
  const runtime = new CaptureRuntime(new AddonManager(log), post, { maxCaptureBytes: config.maxCaptureBytes, capturing: config.capturing });
  const analysis = await AnalysisEngine.open(storeReads(store), log, config.home, config.configuredWindows);
  const history = historyOps(store, config.home, log, analysis, {
    inflightResponseIds: () => [...runtime.live.values()].map((f) => f.assembler.responseId),
    // Posted before the import's answer, on the same port: the main thread hears of them first.
    onImported: config.announceImports ? (ids, last) => post({ t: 'imported', ids, last }) : undefined,
  });
  const addons = runtime.addons;
  let sentStats = '';
  let closed = false;
  const stats = () => {
    if (closed) return;
    const s: WorkerStats = {
      addonFailures: Object.fromEntries(addons.failures),
      lastFailure: addons.lastFailure?.message ?? analysis.lastFailure ?? null,
      analysisFailures: analysis.failures,
      priceErrors: analysis.prices.errors,
      store: store.writeHealth(),
    };
    const text = JSON.stringify(s);
    if (text === sentStats) return;
    sentStats = text;
    post({ t: 'stats', stats: s });
  };
  const statsTimer = setInterval(stats, STATS_INTERVAL_MS).unref();
  // Order matters: a nickname is applied before the exchange is announced or stored.
  addons.add(
    nicknamesAddon((threadId, nickname) => {
      // Exchanges of that child stored before the parent revealed its nickname.
      const changed = [];
      for (const s of store.list({ thread: threadId, limit: 1000 }).items) {
        if (s.agent.nickname === nickname) continue;
        const agent = { ...s.agent, nickname };
        void store.update(s.id, { agent });
        changed.push({ ...s, agent });
      }
      if (changed.length) post({ t: 'updated', summaries: changed, usage: null });
    }),
  );
  addons.add(liveAddon(post));
  // Extra addons see (and may amend) each flow before it is stored, as the built-in ones do.
  for (const m of config.addonModules) addons.add(((await import(m)) as { default: CaptureAddon }).default);
  addons.add(storeAddon({ store, post, analysis, stats, liveUsage: history.liveUsage }));
  // Analyses a release or an edited prices.json made out of date are recomputed in the background.
  const recompute = new Recompute({ store, analysis, post, liveUsage: history.liveUsage, log, stopped: () => closed });
  const unwatchPrices = watchPrices(config.home, log, () => {
    void analysis
      .reloadPrices()
      .then((changed) => changed && recompute.schedule())
      .catch((err) => log.error(`prices: reading ${config.home}/prices.json failed: ${describeError(err)}`))
      .finally(stats);
  });
  recompute.schedule();
  const handle = (m: ToWorker) => {
    try {
      runtime.handle(m);
    } catch (err) {
      // A capture bug must not stop the worker: the exchange is lost to capture, forwarding is unaffected.
      log.error(`capture worker: ${m.t} failed: ${describeError(err)}`);
    }
  };
  // Messages waiting to be handled, a loop turn's worth at a time (see below).
  let inbox: ToWorker[] = [];
  // Not while messages wait or an ended exchange is still worked on: a worker below normal
  // priority stores a burst's last large bodies well after they stopped arriving.
  const collector = new IdleCollector(engineGc(), { busy: () => inbox.length > 0 || runtime.busy() });
  const receive = (m: ToWorker): void => {
    if (m.t === 'batch') return m.messages.forEach(receive);
    if (m.t === 'reqChunk' || m.t === 'chunk') collector.took(m.chunk.byteLength);
    if (m.t === 'history') return void answerHistory(m.n, m.op as HistoryOp, m.args);
    // Idle means no background work either: a recompute in progress is waited for.
    if (m.t === 'query' && m.q.q === 'idle') return void recompute.settled().then(() => handle(m));
    handle(m);
  };
  // Messages are handled a loop turn's worth at a time, in the check phase: a MessagePort hands a
  // busy receiver up to 1,000 messages without returning to the loop, which held this thread's
  // immediates and timers (acknowledgements, posts to the main thread, the store's writes) back
  // for a fifth of a second under steady traffic, and let capture's byte budget fill for nothing.
  const drain = () => {
    const messages = inbox;
    inbox = [];
    messages.forEach(receive);
  };
  port.on('message', (m: ToWorker) => {
    if (inbox.push(m) === 1) setImmediate(drain);
  });
  const answerHistory = async (n: number, op: HistoryOp, args: unknown[]) => {
    try {
      if (closed) throw new Error('the history is closed');
      if (op === 'close') {
        closed = true;
        collector.stop();
        clearInterval(statsTimer);
        unwatchPrices();
        await recompute.settled();
      }
      const value = await (history[op] as (...a: unknown[]) => unknown)(...args);
      // Records brought in from elsewhere may carry analyses of an older version.
      if (op === 'migrateLegacy' || op === 'import') recompute.schedule();
      // The figures first: the main thread answers with both (e.g. /status) once the value arrives.
      stats();
      post({ t: 'answer', n, value });
    } catch (err) {
      stats();
      post({ t: 'answer', n, value: null, error: describeError(err) });
    }
  };
  stats();
  return runtime;
}

const data = workerData as { codexDevtoolsCapture?: WorkerConfig } | null;
if (parentPort && data?.codexDevtoolsCapture) {
  yieldToForwarding();
  void serve(parentPort, data.codexDevtoolsCapture);
}
