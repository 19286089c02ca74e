/**
 * @module The bounded channel from forwarding to the capture worker, on the main thread. The
 * forward path only copies bytes into messages (O(n) memcpy, no parsing); when more than the
 * byte budget is waiting for the worker, the rest of that exchange's bytes are not captured and
 * the exchange is marked incomplete: Codex is never slowed down. Heads and ends are never
 * dropped: they hold no bytes.
 */
import type { ExchangeError } from '../protocol/exchange';
import type { HeaderPairs } from '../http/headers';
import type { FlowInit } from './flow';
import type { ToWorker, WsOpen } from './messages';
import { newExchangeId } from './ids';
import { joined, Slabs } from './slab';

export const DEFAULT_CAPTURE_QUEUE_BYTES = 64 * 1024 * 1024;

export type Send = (m: ToWorker, transfer?: ArrayBuffer[]) => void;

type BytesMessage = Extract<ToWorker, { t: 'reqChunk' | 'chunk' }>;

/** A response chunk's arrival time; request chunks carry none. */
const arrivedAt = (m: BytesMessage): number | null => (m.t === 'chunk' ? m.at : null);

export class CaptureChannel {
  private pending = 0;
  /** Chunks not captured because the channel was full. */
  droppedChunks = 0;
  private nextConn = 1;
  readonly wsTurns = new Map<number, (open: boolean, turnId: string | null, clientMessages: number) => void>();
  private readonly slabs = new Slabs();

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

  /**
   * A copy of `chunk` to transfer (not copy again) to the worker, when it fits in the byte budget
   * (then counted); null when it does not.
   */
  take(chunk: Uint8Array): Uint8Array | null {
    if (this.pending + chunk.byteLength > this.maxBytes) {
      this.droppedChunks++;
      return null;
    }
    this.pending += chunk.byteLength;
    return this.slabs.copy(chunk);
  }

  open(init: Omit<FlowInit, 'maxCaptureBytes' | 'id' | 'startedAt'>): HttpCapture {
    const startedAt = Date.now();
    const id = newExchangeId(startedAt);
    this.send({ t: 'open', id, init: { ...init, id, startedAt } });
    return new HttpCapture(id, this, this.send);
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
  private requestDone = false;
  /** This capture's latest message while it carries bytes that the next copy may join. */
  private joinable: BytesMessage | null = null;

  constructor(
    readonly id: string,
    private readonly channel: CaptureChannel,
    private readonly send: Send,
  ) {}

  private emit(m: ToWorker): void {
    this.joinable = null;
    this.send(m);
  }

  /**
   * Sends a copy of forwarded bytes, or joins it to this capture's latest message when that one
   * carries the bytes just before it, of the same side and millisecond, in a slab not posted yet.
   * undici hands over each chunk of a chunked body alone, so a streamed answer's events arrive
   * as a run of small chunks in one turn of the loop: a message each cost the forwarding thread
   * a structured clone per event, and the worker a message to handle. Joined, nothing is lost:
   * the worker reads the same bytes, with the time they arrived.
   */
  private sendBytes(m: BytesMessage): void {
    const prev = this.joinable;
    if (prev && prev.t === m.t && arrivedAt(prev) === arrivedAt(m)) {
      const both = joined(prev.chunk, m.chunk);
      if (both) return void (prev.chunk = both);
    }
    this.send(m, [m.chunk.buffer as ArrayBuffer]);
    this.joinable = m;
  }

  /** Request bytes as forwarded (before any model override). */
  requestChunk(chunk: Uint8Array): void {
    if (this.requestDone) return;
    this.requestBytes += chunk.byteLength;
    if (this.requestLost) return;
    if (this.requestBytes > this.channel.maxCaptureBytes) {
      this.requestLost = 'limit';
      return;
    }
    const c = this.channel.take(chunk);
    if (!c) {
      this.requestLost = 'the capture queue was full; the request was forwarded in full';
      return;
    }
    this.sendBytes({ t: 'reqChunk', id: this.id, chunk: c });
  }

  /** The request body ended (once; later calls and chunks are ignored). */
  requestEnd(): void {
    if (this.requestDone) return;
    this.requestDone = true;
    const lost =
      this.requestLost === 'limit'
        ? `${this.requestBytes} bytes exceed the capture limit of ${this.channel.maxCaptureBytes}`
        : this.requestLost;
    this.emit({ t: 'reqEnd', id: this.id, bytes: this.requestBytes, lost });
  }

  head(status: number, headers: HeaderPairs, at: number): void {
    this.emit({ t: 'head', id: this.id, status, headers, at });
  }

  /** Response bytes as forwarded to Codex (possibly compressed). */
  chunk(chunk: Uint8Array): void {
    if (this.responseDropping) return;
    const c = this.channel.take(chunk);
    if (!c) {
      this.responseDropping = true;
      this.emit({
        t: 'incomplete',
        id: this.id,
        reason: 'capture queue full: the rest of this response was forwarded but not captured',
      });
      return;
    }
    this.sendBytes({ t: 'chunk', id: this.id, chunk: c, at: Date.now() });
  }

  /**
   * The response ended. The request ends first if capture has not heard its end: the body's
   * generator tells it only when undici asks for more, and undici may wait for the socket to drain
   * while the upstream, which has the whole body, answers (over TLS, 1 turn in 8 of the ChatGPT
   * end-to-end test); the worker then finished the exchange without its request.
   */
  end(resetBy?: string): void {
    this.requestEnd();
    this.emit({ t: 'end', id: this.id, at: Date.now(), ...(resetBy ? { resetBy } : {}) });
  }

  /** The exchange failed; as for `end`, the request ends first. */
  fail(status: 'aborted' | 'upstream_error', error: ExchangeError): void {
    this.requestEnd();
    this.emit({ t: 'fail', id: this.id, status, error, at: Date.now() });
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
    this.send({ t: 'wsText', conn: this.conn, from, text, at: Date.now() });
  }

  binary(from: 'client' | 'server', bytes: number): void {
    this.send({ t: 'wsBinary', conn: this.conn, from, bytes, at: Date.now() });
  }

  close(reason: string): void {
    this.channel.wsTurns.delete(this.conn);
    this.send({ t: 'wsClose', conn: this.conn, reason, at: Date.now() });
  }
}
