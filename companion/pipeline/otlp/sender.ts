/**
 * @module Sends queued items in batches, off the capture path: a timer picks a batch, one
 * request is in flight at a time, and a failed batch goes back to the queue with exponential
 * backoff (the SDK transport already retried 429/502/503/504 within its timeout). What happened
 * is kept for `/api/status`.
 */
import { describeError } from '../../lib/log';
import { maskUrlsInText } from '../../lib/url-secrets';
import type { ExportSignalStatus } from '../../protocol/api';
import { DropOldestQueue } from './queue';

export type SignalStatus = ExportSignalStatus;

export interface SenderOptions {
  maxQueue: number;
  maxBatch: number;
  delayMillis: number;
  initialBackoffMillis?: number;
  maxBackoffMillis?: number;
  /** Told after each failed batch (live clients show it); its own failure is ignored. */
  onFailure?: () => void;
}

export class BatchSender<T> {
  private readonly queue: DropOldestQueue<T>;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private backoff = 0;
  private closed = false;
  readonly status: Omit<SignalStatus, 'queued' | 'dropped'>;

  constructor(
    private readonly send: (batch: T[]) => Promise<void>,
    private readonly opts: SenderOptions,
    target: { endpoint: string; protocol: string },
  ) {
    this.queue = new DropOldestQueue<T>(opts.maxQueue);
    this.status = { ...target, exported: 0, failures: 0, lastError: null, lastSuccessAt: null, retryAt: null };
  }

  snapshot(): SignalStatus {
    return { ...this.status, queued: this.queue.size, dropped: this.queue.dropped };
  }

  add(items: readonly T[]): void {
    if (this.closed) return;
    this.queue.push(items);
    if (this.status.retryAt !== null) return;
    this.schedule(this.queue.size >= this.opts.maxBatch ? 0 : this.opts.delayMillis);
  }

  private schedule(ms: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // One request at a time: the one in flight schedules the next batch when it settles, so a
      // backend that hangs leaves no pile of waiting flushes behind it.
      if (!this.sending) void this.flushOnce();
    }, ms);
    // A pending export never keeps the process alive.
    this.timer.unref();
  }

  /** Sends one batch; true when it was accepted (or there was nothing to send). */
  private flushOnce(): Promise<boolean> {
    if (this.sending) return this.sending.then(() => this.flushOnce());
    const batch = this.queue.take(this.opts.maxBatch);
    if (!batch.length) return Promise.resolve(true);
    let ok = false;
    this.sending = this.send(batch).then(
      () => {
        ok = true;
        this.backoff = 0;
        this.status.exported += batch.length;
        this.status.lastSuccessAt = Date.now();
        this.status.retryAt = null;
      },
      (err: unknown) => {
        this.queue.requeue(batch);
        this.status.failures++;
        this.status.lastError = { message: maskUrlsInText(describeError(err)), at: Date.now() };
        const initial = this.opts.initialBackoffMillis ?? 1000;
        this.backoff = Math.min(this.opts.maxBackoffMillis ?? 60_000, this.backoff ? this.backoff * 2 : initial);
        this.status.retryAt = Date.now() + this.backoff;
        try {
          this.opts.onFailure?.();
        } catch {
          // A listener's failure must not stop the retries.
        }
      },
    );
    return this.sending.then(() => {
      this.sending = null;
      if (this.closed) return ok;
      if (!ok) this.schedule(this.backoff);
      else if (this.queue.size) this.schedule(this.queue.size >= this.opts.maxBatch ? 0 : this.opts.delayMillis);
      return ok;
    });
  }

  /** Shutdown: sends what is queued until a batch fails or `deadline` passes; the rest is dropped. */
  async drain(deadline: number): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.sending) await this.sending;
    while (this.queue.size && Date.now() < deadline) {
      if (!(await this.flushOnce())) break;
    }
  }
}
