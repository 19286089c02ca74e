/**
 * @module The bounded queue between forwarding and capture. The forward path only enqueues
 * (O(1)); parsing happens on later ticks, in the order things were queued. When the queue holds
 * more than its byte budget, a response chunk is not captured and its exchange is marked
 * incomplete: Codex is never slowed down. Tasks (the request body, the response head, the end)
 * are never dropped: they hold no bytes beyond those being forwarded anyway.
 */
import type { ExchangeFlow } from './flow';

type Task = { flow: ExchangeFlow; chunk: Uint8Array } | { flow: ExchangeFlow; run: () => void | Promise<void> };

export const DEFAULT_CAPTURE_QUEUE_BYTES = 64 * 1024 * 1024;

export class CaptureQueue {
  private tasks: Task[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private readonly dropping = new WeakSet<ExchangeFlow>();
  private readonly running = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];
  /** Chunks not captured because the queue was full. */
  droppedChunks = 0;

  constructor(private readonly maxBytes = DEFAULT_CAPTURE_QUEUE_BYTES) {}

  /** Bytes forwarded to Codex, to be parsed later. */
  pushBytes(flow: ExchangeFlow, chunk: Uint8Array): void {
    if (this.dropping.has(flow)) return;
    if (this.pendingBytes + chunk.byteLength > this.maxBytes) {
      this.dropping.add(flow);
      this.droppedChunks++;
      flow.markIncomplete(`capture queue full (${this.maxBytes} bytes pending): the rest of this response was forwarded but not captured`);
      return;
    }
    this.pendingBytes += chunk.byteLength;
    this.tasks.push({ flow, chunk });
    this.schedule();
  }

  /** Runs `run` after everything queued before it and before anything queued after it. */
  pushTask(flow: ExchangeFlow, run: () => void | Promise<void>): void {
    this.tasks.push({ flow, run });
    this.schedule();
  }

  /** Resolves when nothing is queued and every started end-of-flow task has settled. */
  idle(): Promise<void> {
    if (this.tasks.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    // Work in slices so a burst of capture never holds the event loop the forward path needs.
    const slice = this.tasks.splice(0, 256);
    for (const task of slice) {
      if ('chunk' in task) {
        this.pendingBytes -= task.chunk.byteLength;
        if (!this.dropping.has(task.flow)) task.flow.pushResponseBytes(task.chunk);
      } else {
        // Started here, not on a later microtask, so a head is applied before the chunks after it.
        let started: void | Promise<void>;
        try {
          started = task.run();
        } catch (err) {
          started = Promise.reject(err);
        }
        const p = Promise.resolve(started)
          .catch(() => {
            // capture steps report their own failures through the addon manager; none may stop the drain
          })
          .finally(() => {
            this.running.delete(p);
            this.checkIdle();
          });
        this.running.add(p);
      }
    }
    if (this.tasks.length > 0) this.schedule();
    else this.checkIdle();
  }

  private checkIdle(): void {
    if (this.tasks.length > 0 || this.running.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
