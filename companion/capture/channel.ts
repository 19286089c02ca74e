/**
 * @module The bounded channel from forwarding to the capture worker, on the main thread. The
 * forward path only copies bytes into messages (O(n) memcpy, no parsing); when more than the
 * byte budget is waiting for the worker, the rest of that exchange's bytes are not captured and
 * the exchange is marked incomplete: Codex is never slowed down. Heads and ends are never
 * dropped: they hold no bytes.
 *
 * While an HTTP exchange waits for its answer to begin, capture messages are held, in order (at
 * most HOLD_MS): while a request goes out and its answer comes back, the worker is not woken. On
 * two cores a capture thread that wakes then takes a core from the forward, from Codex or from a
 * local upstream; held, it starts once the answers are on their way to Codex.
 */
import type { ExchangeError } from '../protocol/exchange';
import type { HeaderPairs } from '../http/headers';
import type { FlowInit } from './flow';
import type { ToWorker, WsOpen } from './messages';
import { newExchangeId } from './ids';

export const DEFAULT_CAPTURE_QUEUE_BYTES = 64 * 1024 * 1024;
/**
 * The longest an exchange's capture waits for its answer to begin. A model's first byte takes far
 * longer; the live view then shows the request this much later, and it is stored this much later.
 */
export const HOLD_MS = 5;

export type Send = (m: ToWorker, transfer?: ArrayBuffer[]) => void;

/** A copy of `chunk` in its own buffer, to be transferred (not copied again) to the worker. */
function copy(chunk: Uint8Array): Uint8Array {
  return new Uint8Array(chunk);
}

export class CaptureChannel {
  private pending = 0;
  /** Chunks not captured because the channel was full. */
  droppedChunks = 0;
  private nextConn = 1;
  /** Exchanges whose answer has not begun; while there is one, messages are held. */
  private readonly waiting = new Set<HttpCapture>();
  private held: [ToWorker, ArrayBuffer[] | undefined][] = [];
  private holdTimer: NodeJS.Timeout | null = null;
  readonly wsTurns = new Map<number, (open: boolean, turnId: string | null, clientMessages: number) => void>();

  constructor(
    private readonly send: Send,
    private readonly maxBytes: number,
    readonly maxCaptureBytes: number,
  ) {}

  /** The worker consumed `bytes`. */
  acked(bytes: number): void {
    this.pending = Math.max(0, this.pending - bytes);
  }

  /** The worker is gone (it restarts on the next message): nothing is waiting any more. */
  reset(): void {
    this.pending = 0;
  }

  /** Whether `bytes` more fit; counts them when they do. */
  take(bytes: number): boolean {
    if (this.pending + bytes > this.maxBytes) {
      this.droppedChunks++;
      return false;
    }
    this.pending += bytes;
    return true;
  }

  open(init: Omit<FlowInit, 'maxCaptureBytes' | 'id'>): HttpCapture {
    const id = newExchangeId();
    const capture = new HttpCapture(id, this);
    this.waiting.add(capture);
    this.post({ t: 'open', id, init: { ...init, id } });
    return capture;
  }

  /** Sends an exchange's message, or holds it (in order) while an exchange waits for its answer. */
  post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    if (this.waiting.size === 0) return this.send(m, transfer);
    this.held.push([m, transfer]);
    if (this.holdTimer) return;
    this.holdTimer = setTimeout(() => this.releaseAll(), HOLD_MS);
    this.holdTimer.unref();
  }

  /** The exchange's answer began (or it ended without one); the last one waiting releases what is held. */
  answered(capture: HttpCapture): void {
    if (this.waiting.delete(capture) && this.waiting.size === 0) this.release();
  }

  /** Sends every held message now and stops waiting: what the worker is asked next sees all captured before. */
  releaseAll(): void {
    this.waiting.clear();
    this.release();
  }

  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const held = this.held;
    this.held = [];
    for (const [m, t] of held) this.send(m, t);
  }

  openWs(init: WsOpen, onTurn: (open: boolean, turnId: string | null, clientMessages: number) => void): WsCapture {
    const conn = this.nextConn++;
    this.wsTurns.set(conn, onTurn);
    this.send({ t: 'wsOpen', conn, init });
    return new WsCapture(conn, this, this.send);
  }

  capturing(on: boolean): void {
    this.send({ t: 'capturing', on });
  }
}

/** The capture side of one forwarded HTTP request. */
export class HttpCapture {
  private requestBytes = 0;
  private requestLost: string | null = null;
  private responseDropping = false;

  constructor(
    readonly id: string,
    private readonly channel: CaptureChannel,
  ) {}

  /** Request bytes as forwarded (before any model override). */
  requestChunk(chunk: Uint8Array): void {
    this.requestBytes += chunk.byteLength;
    if (this.requestLost) return;
    if (this.requestBytes > this.channel.maxCaptureBytes) {
      this.requestLost = 'limit';
      return;
    }
    if (!this.channel.take(chunk.byteLength)) {
      this.requestLost = 'the capture queue was full; the request was forwarded in full';
      return;
    }
    const c = copy(chunk);
    this.channel.post({ t: 'reqChunk', id: this.id, chunk: c }, [c.buffer as ArrayBuffer]);
  }

  requestEnd(): void {
    const lost =
      this.requestLost === 'limit'
        ? `${this.requestBytes} bytes exceed the capture limit of ${this.channel.maxCaptureBytes}`
        : this.requestLost;
    this.channel.post({ t: 'reqEnd', id: this.id, bytes: this.requestBytes, lost });
  }

  head(status: number, headers: HeaderPairs, at: number): void {
    this.channel.post({ t: 'head', id: this.id, status, headers, at });
    this.channel.answered(this);
  }

  /** Response bytes as forwarded to Codex (possibly compressed). */
  chunk(chunk: Uint8Array): void {
    if (this.responseDropping) return;
    if (!this.channel.take(chunk.byteLength)) {
      this.responseDropping = true;
      this.channel.post({
        t: 'incomplete',
        id: this.id,
        reason: 'capture queue full: the rest of this response was forwarded but not captured',
      });
      return;
    }
    const c = copy(chunk);
    this.channel.post({ t: 'chunk', id: this.id, chunk: c }, [c.buffer as ArrayBuffer]);
  }

  end(resetBy?: string): void {
    this.channel.post({ t: 'end', id: this.id, ...(resetBy ? { resetBy } : {}) });
    this.channel.answered(this);
  }

  fail(status: 'aborted' | 'upstream_error', error: ExchangeError): void {
    this.channel.post({ t: 'fail', id: this.id, status, error });
    this.channel.answered(this);
  }
}

/** The capture side of one relayed WebSocket. Texts are never dropped: a turn's end is in them. */
export class WsCapture {
  constructor(
    readonly conn: number,
    private readonly channel: CaptureChannel,
    private readonly send: Send,
  ) {}

  text(from: 'client' | 'server', text: string): void {
    this.send({ t: 'wsText', conn: this.conn, from, text });
  }

  binary(from: 'client' | 'server', bytes: number): void {
    this.send({ t: 'wsBinary', conn: this.conn, from, bytes });
  }

  close(reason: string): void {
    this.channel.wsTurns.delete(this.conn);
    this.send({ t: 'wsClose', conn: this.conn, reason });
  }
}
