/**
 * @module One live-feed client: its own sequence numbers and a bounded send queue, so a slow
 * or stuck client is reset (or dropped) without slowing capture or the other clients.
 */
import type { WebSocket } from 'ws';
import type { SentText } from './live-text';
import type { FeedScope } from '../protocol/live';

export interface ClientLimits {
  /** Bytes queued for this client (not yet handed to its socket) before it is reset. */
  maxQueueBytes: number;
  /** Socket buffer above which we stop handing it more. */
  highWaterBytes: number;
  /** How long a reset client may stay unable to drain before it is dropped. */
  stuckMs: number;
}

export class LiveClient {
  scope: FeedScope = 'full';
  ready = false;
  readonly subscriptions = new Set<string>();
  /** What of each subscribed exchange's item text was already sent to this client. */
  readonly textSent = new Map<string, SentText>();
  private seq = 0;
  private queue: string[] = [];
  private queueBytes = 0;
  private resetPending: { since: number; reason: string } | null = null;
  /** The snapshot frame still in the queue, if any. */
  private queuedSnapshot: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  resets = 0;

  constructor(
    readonly ws: WebSocket,
    private readonly limits: ClientLimits,
    private readonly onDrop: (client: LiveClient, why: string) => void,
  ) {}

  /** Queues a message; `body` is the message JSON without `seq`, which is spliced in here. */
  send(body: string, withSeq = true): void {
    this.push(body, withSeq);
    this.pump();
  }

  /** Queues a snapshot (see `snapshotQueued`). */
  sendSnapshot(body: string): void {
    this.queuedSnapshot = this.push(body, true);
    this.pump();
  }

  /** Queues a frame; returns it, or null when it was dropped (the client is being reset). */
  private push(body: string, withSeq: boolean): string | null {
    if (this.resetPending) return null;
    const frame = withSeq ? `{"seq":${++this.seq},${body.slice(1)}` : body;
    this.queue.push(frame);
    this.queueBytes += frame.length;
    if (this.queueBytes > this.limits.maxQueueBytes) {
      // Too far behind: drop what is queued and tell the client to reload once it can listen.
      this.queue = [];
      this.queueBytes = 0;
      this.queuedSnapshot = null;
      this.resetPending = { since: Date.now(), reason: 'the client fell behind the live feed' };
      return null;
    }
    return frame;
  }

  /** A snapshot waits in the queue, not yet handed to the socket. */
  get snapshotQueued(): boolean {
    return this.queuedSnapshot !== null;
  }

  /** Too far behind: what is sent now is dropped until the client has had its reset. */
  get resetting(): boolean {
    return this.resetPending !== null;
  }

  /** Sends a message without a sequence number (heartbeats, errors). */
  sendRaw(body: string): void {
    this.send(body, false);
  }

  private pump(): void {
    while (this.queue.length > 0 && this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount < this.limits.highWaterBytes) {
      const frame = this.queue.shift()!;
      this.queueBytes -= frame.length;
      if (frame === this.queuedSnapshot) this.queuedSnapshot = null;
      this.ws.send(frame);
    }
    if (this.resetPending && this.ws.bufferedAmount < this.limits.highWaterBytes) {
      const { reason } = this.resetPending;
      this.resetPending = null;
      this.resets++;
      this.send(JSON.stringify({ type: 'feed/reset', reason }));
      return;
    }
    if (this.resetPending && Date.now() - this.resetPending.since > this.limits.stuckMs) {
      this.onDrop(this, 'stuck: its socket did not drain');
      return;
    }
    if ((this.queue.length > 0 || this.resetPending) && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, 25);
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.queuedSnapshot = null;
  }
}
