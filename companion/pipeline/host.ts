/**
 * @module The main thread's end of the capture worker: starts it lazily (on the first exchange,
 * so an idle companion never loads the capture and analysis code or the tokenizer), feeds it
 * through the bounded channel, and applies what comes back, in order, through the sink: records
 * to the store, announcements to the live hub. One worker thread: the machines this runs on have
 * two cores, one for the main thread's forwarding and one for everything capture does.
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

export type CaptureThread = 'auto' | 'worker' | 'inline';

/** What the host does with the worker's messages; each may be async and is awaited in order. */
export type Sink = (m: FromWorker, answer: (n: number, value: unknown) => void) => unknown;

export class CaptureHost {
  readonly channel: CaptureChannel;
  private worker: Worker | null = null;
  private inline: { post: (m: ToWorker, transfer?: ArrayBuffer[]) => void } | null = null;
  private starting = false;
  private backlog: [ToWorker, ArrayBuffer[] | undefined][] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private nextQuery = 1;
  private readonly queries = new Map<number, (v: unknown) => void>();
  stats: WorkerStats = { addonFailures: {}, lastFailure: null, analysisFailures: 0, priceErrors: [] };
  private closed = false;

  constructor(
    private readonly config: WorkerConfig,
    private readonly sink: Sink,
    private readonly log: Logger,
    private readonly thread: CaptureThread,
    queueBytes: number,
  ) {
    const send: Send = (m, transfer) => this.post(m, transfer);
    this.channel = new CaptureChannel(send, queueBytes, config.maxCaptureBytes);
  }

  private post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    if (this.closed) return;
    if (this.worker) return this.worker.postMessage(m, transfer);
    if (this.inline) return this.inline.post(m, transfer);
    this.backlog.push([m, transfer]);
    if (!this.starting) void this.start();
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
        this.inline = { post: (m, transfer) => port1.postMessage(m, transfer) };
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
    // Acknowledgements free the channel at once; everything else is applied in order.
    if (m.t === 'ack') return this.channel.acked(m.bytes);
    if (m.t === 'stats') {
      this.stats = m.stats;
      return;
    }
    if (m.t === 'log') return this.log[m.level](m.message);
    this.chain = this.chain.then(async () => {
      try {
        if (m.t === 'answer') {
          this.queries.get(m.n)?.(m.value);
          this.queries.delete(m.n);
          return;
        }
        await this.sink(m, (n, value) => this.post({ t: 'reply', n, value }));
      } catch (err) {
        this.log.error(`capture: applying ${m.t} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  }

  /** Asks the worker; null when it is not running (nothing in flight there). */
  query<T>(q: Query): Promise<T | null> {
    if (this.closed) return Promise.resolve(null);
    if (!this.worker && !this.inline && !this.starting && this.backlog.length === 0) return Promise.resolve(null);
    return new Promise((resolve) => {
      const n = this.nextQuery++;
      this.queries.set(n, resolve as (v: unknown) => void);
      this.post({ t: 'query', n, q });
    });
  }

  /** Resolves when the worker has processed everything sent so far and the sink has applied it. */
  async idle(): Promise<void> {
    await this.query({ q: 'idle' });
    await this.chain;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.inlinePorts) p.close();
    await this.worker?.terminate();
    this.worker = null;
  }
}
