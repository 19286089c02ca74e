/**
 * The live feed's socket lifecycle: connect, say hello (token, protocol version, scope), pass
 * frames on, and reconnect with capped backoff. It knows nothing of message meaning: the
 * connection store decodes frames and decides when retrying is pointless (`hold`).
 */
import { PROTOCOL_VERSION, type ClientMessage, type FeedScope } from '../../companion/protocol';
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './backoff';
import type { CloseInfo, CompanionConnection, ConnectionFactory } from './companion-connection';

export interface FeedTarget {
  url: string;
  token: string;
}

export interface LiveFeedEvents {
  connecting(attempt: number): void;
  /** The socket is open and the hello went out. */
  open(): void;
  frame(raw: string): void;
  /** `retryInMs` is null when no retry is scheduled (stopped or held). */
  closed(info: CloseInfo, retryInMs: number | null): void;
  /** No pairing, so no socket was opened and none is retried until `retryNow` (a new pairing). */
  unpaired(): void;
}

export interface LiveFeedOptions {
  connect: ConnectionFactory;
  scope: FeedScope;
  /** Read at every attempt, so a new pairing applies to the next one. Null: not paired. */
  target(): FeedTarget | null;
  events: LiveFeedEvents;
  backoff?: BackoffOptions;
  /**
   * Silence after which an open socket counts as dead. The companion sends a heartbeat every
   * 20 s; a sleeping laptop or a killed companion can leave a socket that never reports closing.
   */
  idleTimeoutMs?: number;
}

/** Close code we use when the watchdog gives up on a silent socket. */
export const IDLE_CLOSE_CODE = 4000;

export class LiveFeed {
  private conn: CompanionConnection | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private running = false;
  private held = false;

  constructor(private readonly opts: LiveFeedOptions) {}

  get connected(): boolean {
    return this.conn !== null;
  }

  start(): void {
    this.running = true;
    this.held = false;
    this.attempt = 0;
    this.open();
  }

  stop(): void {
    this.running = false;
    this.clearTimers();
    const c = this.conn;
    this.conn = null;
    c?.close(1000, 'stopped');
  }

  /** Stops retrying until `start` or `retryNow`: the companion refused us for a reason a retry cannot fix. */
  hold(): void {
    this.held = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Drops any socket and connects again at once (a new pairing, or the user's "retry"). */
  retryNow(): void {
    this.held = false;
    this.attempt = 0;
    this.clearTimers();
    const c = this.conn;
    this.conn = null;
    c?.close(1000, 'reconnecting');
    if (this.running) this.open();
  }

  /** The feed works (a snapshot arrived): the next failure starts the backoff from the beginning. */
  markHealthy(): void {
    this.attempt = 0;
  }

  send(message: ClientMessage): boolean {
    if (!this.conn) return false;
    this.conn.send(message);
    return true;
  }

  private open(): void {
    if (!this.running) return;
    const target = this.opts.target();
    if (!target) {
      this.opts.events.unpaired();
      return;
    }
    this.opts.events.connecting(this.attempt + 1);
    const conn = this.opts.connect(target.url);
    this.conn = conn;
    conn.onOpen(() => {
      if (this.conn !== conn) return;
      // Browsers cannot set headers on a WebSocket, so the token travels in the first message.
      conn.send({ type: 'hello', token: target.token, protocol: PROTOCOL_VERSION, scope: this.opts.scope });
      this.touch(conn);
      this.opts.events.open();
    });
    conn.onMessage((raw) => {
      if (this.conn !== conn) return;
      this.touch(conn);
      this.opts.events.frame(raw);
    });
    conn.onClose((info) => {
      if (this.conn !== conn) return;
      this.conn = null;
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      this.opts.events.closed(info, this.scheduleRetry());
    });
  }

  private touch(conn: CompanionConnection): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const ms = this.opts.idleTimeoutMs ?? 45_000;
    this.idleTimer = setTimeout(() => {
      if (this.conn === conn) conn.close(IDLE_CLOSE_CODE, `no message for ${Math.round(ms / 1000)} s`);
    }, ms);
  }

  private scheduleRetry(): number | null {
    if (!this.running || this.held) return null;
    this.attempt++;
    const delay = backoffDelay(this.attempt, this.opts.backoff ?? DEFAULT_BACKOFF);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
    return delay;
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.retryTimer = null;
    this.idleTimer = null;
  }
}
