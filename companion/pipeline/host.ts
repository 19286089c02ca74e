/**
 * @module The main thread's end of the capture worker: starts it (the history lives there, so at
 * once; the tokenizer is loaded there on the first count), feeds it through the bounded channel,
 * answers nothing itself, and applies what comes back, in order, through the sink: announcements
 * to the live hub. One worker thread: the machines this runs on have two cores, one for the main
 * thread's forwarding, API and live feed, and one for everything capture and storage do.
 *
 * The built companion runs `capture-worker.mjs` beside its bundle; from TypeScript sources the
 * worker is loaded through tsx when `thread: 'worker'` is asked for, and otherwise `serve` runs
 * on a MessageChannel in this thread (tests: same protocol, same structured clones).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { CaptureChannel, type Send } from '../capture/channel';
import type { FromWorker, Query, ToWorker, WorkerConfig, WorkerStats } from '../capture/messages';
import type { Logger } from '../lib/log';
import { Unavailable } from '../lib/unavailable';

export type CaptureThread = 'auto' | 'worker' | 'inline';

/** How long a history call waits for the worker before it fails as unavailable. */
export const DEFAULT_HISTORY_TIMEOUT_MS = 10_000;

/** What the host does with the worker's messages; each may be async and is awaited in order. */
export type Sink = (m: FromWorker) => unknown;

export class CaptureHost {
  readonly channel: CaptureChannel;
  private worker: Worker | null = null;
  private inline: { postMessage: (m: ToWorker, transfer?: ArrayBuffer[]) => void } | null = null;
  private starting = false;
  private backlog: [ToWorker, ArrayBuffer[] | undefined][] = [];
  /** Messages of this turn of the loop, not posted yet (see flush). */
  private outbox: [ToWorker, ArrayBuffer[] | undefined][] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private nextQuery = 1;
  private readonly queries = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; history: boolean }>();
  stats: WorkerStats = { addonFailures: {}, lastFailure: null, analysisFailures: 0, priceErrors: [], store: null };
  private closed = false;

  constructor(
    private readonly config: WorkerConfig,
    private readonly sink: Sink,
    private readonly log: Logger,
    private readonly thread: CaptureThread,
    queueBytes: number,
    private readonly historyTimeoutMs = DEFAULT_HISTORY_TIMEOUT_MS,
  ) {
    const send: Send = (m, transfer) => this.post(m, transfer);
    this.channel = new CaptureChannel(send, queueBytes, config.maxCaptureBytes);
  }

  private post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    if (this.closed) return;
    if (this.worker || this.inline) {
      this.outbox.push([m, transfer]);
      if (this.outbox.length === 1) setImmediate(() => this.flush());
      return;
    }
    this.backlog.push([m, transfer]);
    if (!this.starting) void this.start();
  }

  /**
   * Sends this turn's messages as one. A streamed answer arrives in many small chunks, each with
   * a message or more; posting each alone cost the forwarding thread more than copying its bytes.
   * Flushed once the loop has handled what the sockets brought, so a message waits microseconds.
   */
  private flush(): void {
    const out = this.outbox;
    this.outbox = [];
    if (out.length === 0 || this.closed) return;
    const target = this.worker ?? this.inline;
    // The worker exited since: these wait for the next one, as any message would.
    if (!target) return void out.forEach(([m, t]) => this.post(m, t));
    if (out.length === 1) return target.postMessage(out[0][0], out[0][1]);
    // Chunks copied into one slab (capture/slab.ts) name it each: it is transferred once.
    target.postMessage({ t: 'batch', messages: out.map(([m]) => m) }, [...new Set(out.flatMap(([, t]) => t ?? []))]);
  }

  private async start(): Promise<void> {
    this.starting = true;
    const builtFile = new URL('./capture-worker.mjs', import.meta.url);
    const built = fs.existsSync(fileURLToPath(builtFile));
    try {
      if (built || this.thread === 'worker') {
        const w = built
          ? new Worker(builtFile, { workerData: { codexDevtoolsCapture: this.config } })
          : new Worker(
              `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(new URL('../worker.ts', import.meta.url).href)});`,
              { eval: true, workerData: { codexDevtoolsCapture: this.config } },
            );
        w.unref();
        w.on('message', (m: FromWorker) => this.receive(m));
        w.on('error', (err) => this.log.error(`capture worker failed: ${err.message}`));
        w.on('exit', (code) => {
          if (this.worker !== w) return;
          this.worker = null;
          this.channel.reset();
          // Calls in flight get no answer from this worker: history calls fail, queries find nothing.
          for (const q of this.queries.values()) {
            if (q.history) q.reject(new Unavailable(`the capture worker exited (${code})`));
            else q.resolve(null);
          }
          this.queries.clear();
          // Exchanges in flight are lost to capture (never to Codex); the next one starts a fresh worker.
          if (!this.closed) this.log.error(`capture worker exited (${code}); capture restarts with the next exchange`);
        });
        this.worker = w;
      } else {
        const { port1, port2 } = new MessageChannel();
        port1.on('message', (m: FromWorker) => this.receive(m));
        port1.unref();
        port2.unref();
        const { serve } = await import('../worker');
        await serve(port2, this.config);
        this.inline = { postMessage: (m, transfer) => port1.postMessage(m, transfer) };
        this.inlinePorts = [port1, port2];
      }
    } catch (err) {
      this.log.error(`capture worker could not start: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.starting = false;
    }
    const backlog = this.backlog;
    this.backlog = [];
    for (const [m, t] of backlog) this.post(m, t);
  }

  private inlinePorts: { close(): void }[] = [];

  private receive(m: FromWorker): void {
    if (m.t === 'batch') return m.messages.forEach((x) => this.receive(x));
    // Acknowledgements free the channel at once; everything else is applied in order.
    if (m.t === 'ack') return this.channel.acked(m.bytes);
    if (m.t === 'stats') {
      this.stats = m.stats;
      return;
    }
    if (m.t === 'log') return this.log[m.level](m.message);
    // Answers resolve at once: a sink step may itself wait for one (the OTLP export reads the
    // record it was told about), so queueing answers behind the sink would deadlock.
    if (m.t === 'answer') {
      const q = this.queries.get(m.n);
      this.queries.delete(m.n);
      if (m.error !== undefined) q?.reject(new Error(m.error));
      else q?.resolve(m.value);
      return;
    }
    this.chain = this.chain.then(async () => {
      try {
        await this.sink(m);
      } catch (err) {
        this.log.error(`capture: applying ${m.t} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** Asks the worker; null when it is not running (nothing in flight there). */
  query<T>(q: Query): Promise<T | null> {
    if (this.closed) return Promise.resolve(null);
    if (!this.worker && !this.inline && !this.starting && this.backlog.length === 0) return Promise.resolve(null);
    return this.ask((n) => ({ t: 'query', n, q }), false) as Promise<T | null>;
  }

  /**
   * Calls a history operation in the worker (starting it if it is not running). A worker that
   * does not answer within `historyTimeoutMs` (a capture hook holding its thread) fails the call
   * with `Unavailable`, so an API request never hangs on it.
   */
  history(op: string, args: unknown[], timeoutMs = this.historyTimeoutMs): Promise<unknown> {
    if (this.closed) return Promise.reject(new Unavailable('codex-devtools is shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Unavailable(`the capture worker did not answer ${op} within ${timeoutMs / 1000} s: it is busy or stuck`)),
        timeoutMs,
      );
      timer.unref();
    });
    return Promise.race([this.ask((n) => ({ t: 'history', n, op, args }), true), timeout]).finally(() => clearTimeout(timer));
  }

  private ask(message: (n: number) => ToWorker, history: boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const n = this.nextQuery++;
      this.queries.set(n, { resolve, reject, history });
      this.post(message(n));
    });
  }

  /** Resolves when the worker has processed everything sent so far and the sink has applied it. */
  async idle(): Promise<void> {
    await this.query({ q: 'idle' });
    await this.chain;
  }

  /** Closes the store (it writes what it holds), waiting at most `boundMs` for a busy worker, then ends the thread. */
  async close(boundMs: number): Promise<void> {
    if (this.worker || this.inline || this.starting)
      await Promise.race([this.history('close', []).catch(() => undefined), new Promise((r) => setTimeout(r, boundMs).unref())]);
    this.closed = true;
    for (const p of this.inlinePorts) p.close();
    await this.worker?.terminate();
    this.worker = null;
  }
}
