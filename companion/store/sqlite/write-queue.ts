/**
 * @module Writes that must not be lost when the disk fails them. Each write is a transaction
 * run in order; when one fails (a full disk: SQLITE_FULL, an I/O error, a lock held too long)
 * it and every write after it wait in memory, each counted once, and are retried on a timer
 * with backoff until they work. Capture never waits on this.
 */
import { describeError, type Logger } from '../../lib/log';

export interface Write {
  /** The exchange it belongs to, for the log. */
  id: string;
  /** Every exchange it writes (a batch writes several), to drop writes of deleted exchanges; defaults to `[id]`. */
  ids?: string[];
  kind: 'begin' | 'events' | 'record' | 'analysis' | 'update';
  run: () => void;
  /** Counted in `writeErrors` already (a write is counted once, however often it is retried). */
  failed?: boolean;
}

export interface WriteStats {
  writeErrors: number;
  writeFailing: boolean;
  lastWriteError: { message: string; at: number; recoveredAt: number | null } | null;
  lostRecords: number;
}

const MAX_PENDING = 2000;
/** Retry delays after a failed write: doubling from `first` up to `max`. */
export const RETRY_DELAY_MS = { first: 1000, max: 60_000 };

export class WriteQueue {
  private readonly pending: Write[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay = 0;
  readonly stats: WriteStats = { writeErrors: 0, writeFailing: false, lastWriteError: null, lostRecords: 0 };

  constructor(
    private readonly log: Logger,
    private readonly retryDelayMs: { first: number; max: number },
    /** Called when a write is given up (queue overflow), so its memory copy can go. */
    private readonly onLost: (w: Write) => void,
    /** Called after every pending write is on disk. */
    private readonly onDrained: () => void,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Whether writes of exchange `id` still wait. */
  has(id: string): boolean {
    return this.pending.some((w) => (w.ids ?? [w.id]).includes(id));
  }

  push(w: Write): void {
    this.pending.push(w);
    if (this.pending.length > MAX_PENDING) {
      const lost = this.pending.shift()!;
      this.stats.lostRecords++;
      this.onLost(lost);
      this.log.error(`store: gave up on exchange ${lost.id}: too many writes pending after failures`);
    }
    this.drain();
  }

  /** Forgets waiting writes of the given exchanges (deleted before they were written). */
  drop(ids: (id: string) => boolean): void {
    for (let i = this.pending.length - 1; i >= 0; i--)
      if ((this.pending[i].ids ?? [this.pending[i].id]).some(ids)) this.pending.splice(i, 1);
    if (this.pending.length === 0) this.recovered();
  }

  /** Runs waiting writes in order; stops at the first failure and schedules a retry. */
  drain(): void {
    while (this.pending.length > 0) {
      try {
        this.pending[0].run();
        this.pending.shift();
      } catch (err) {
        this.failed(err);
        return;
      }
    }
    this.recovered();
    this.onDrained();
  }

  private failed(err: unknown): void {
    const message = describeError(err);
    const fresh = this.pending.filter((w) => !w.failed);
    for (const w of fresh) w.failed = true;
    this.stats.writeErrors += fresh.length;
    this.stats.writeFailing = true;
    this.stats.lastWriteError = { message, at: Date.now(), recoveredAt: null };
    if (fresh.length > 0) {
      const ids = [...new Set(fresh.map((w) => w.id))].join(', ');
      this.log.error(
        `store: could not write exchange ${ids} (${message}); capture continues in memory and writing is retried until it works`,
      );
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    const { first, max } = this.retryDelayMs;
    this.retryDelay = this.retryDelay ? Math.min(this.retryDelay * 2, max) : first;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.drain();
    }, this.retryDelay);
    // A pending retry must not keep a finished process alive (close() makes the last attempt).
    this.retryTimer.unref();
  }

  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryDelay = 0;
  }

  private recovered(): void {
    this.stop();
    if (!this.stats.writeFailing) return;
    this.stats.writeFailing = false;
    if (this.stats.lastWriteError) this.stats.lastWriteError.recoveredAt = Date.now();
    this.log.info('store: writing works again; every pending write is on disk');
  }

  /** Forgets everything waiting (the history was cleared): nothing is left to write. */
  clear(): void {
    this.pending.length = 0;
    this.stop();
    this.stats.writeFailing = false;
  }
}
