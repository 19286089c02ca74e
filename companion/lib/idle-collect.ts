/**
 * @module Gives memory back soon after a burst of large bodies. A 30 MB request or a 25 MB answer
 * leaves hundreds of MB of garbage in the capture worker's heap once it is stored; V8 collects
 * an idle heap only when its memory reducer runs, some 8 s later, and with the worker below
 * normal priority the last bodies of a burst are processed after forwarding has ended, so
 * nothing else triggers a collection sooner (measured: 491 MB one second after the bench's burst,
 * 228 MB ten seconds later). Once the bytes taken in since the last collection pass a threshold,
 * no more arrive for a moment and none is still being worked on, one full collection runs, in
 * idle time.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** Bytes taken in before an idle collection is worth its cost (a full GC takes milliseconds). */
export const COLLECT_AFTER_BYTES = 32 * 1024 * 1024;
/** How long nothing must arrive before collecting. */
export const COLLECT_IDLE_MS = 250;

/** The engine's full collection, through a context made after exposing it (V8 offers it no other way). */
export function engineGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

export class IdleCollector {
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;

  private readonly afterBytes: number;
  private readonly idleMs: number;
  private readonly busy: () => boolean;

  constructor(
    private readonly gc: () => void,
    opts: {
      afterBytes?: number;
      idleMs?: number;
      /**
       * Whether what was taken in is still being worked on (parsed, analysed, stored): collected
       * then, the garbage that work is about to leave would stay for the memory reducer's 8 s.
       */
      busy?: () => boolean;
    } = {},
  ) {
    this.afterBytes = opts.afterBytes ?? COLLECT_AFTER_BYTES;
    this.idleMs = opts.idleMs ?? COLLECT_IDLE_MS;
    this.busy = opts.busy ?? (() => false);
  }

  /** `n` bytes were taken in; each intake pushes the collection back until the intake pauses. */
  took(n: number): void {
    this.bytes += n;
    if (this.bytes < this.afterBytes) return;
    this.arm();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.collect(), this.idleMs);
    this.timer.unref();
  }

  private collect(): void {
    if (this.busy()) return this.arm();
    this.timer = null;
    this.bytes = 0;
    this.gc();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
