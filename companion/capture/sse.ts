/**
 * @module Incremental SSE decoding for capture: bytes in (any chunking, multi-byte characters
 * split anywhere), events out. The SSE grammar itself is eventsource-parser's, per the WHATWG
 * spec: LF, CR and CRLF line ends, multi-line `data:`, comments, BOM.
 */
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface RawSseEvent {
  /** The `event:` field, if any. */
  event: string | undefined;
  data: string;
  /** True for an event that was still open when the stream ended; SSE consumers discard these. */
  unterminated: boolean;
}

export interface SseDecoderCallbacks {
  onEvent(event: RawSseEvent): void;
  onError(message: string): void;
}

/** Largest single event we buffer; beyond it the rest of the stream is not parsed. */
export const DEFAULT_MAX_EVENT_CHARS = 64 * 1024 * 1024;

export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private flushing = false;
  private dead = false;
  /** Whether the text fed so far ends in CR: the parser holds it back until it knows if LF follows. */
  private endsInCr = false;

  constructor(
    private readonly cb: SseDecoderCallbacks,
    maxEventChars = DEFAULT_MAX_EVENT_CHARS,
  ) {
    this.parser = createParser({
      onEvent: (e) => cb.onEvent({ event: e.event, data: e.data, unterminated: this.flushing }),
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') this.dead = true;
        cb.onError(err.type === 'unknown-field' ? `ignored unknown SSE field ${JSON.stringify(err.field)}` : err.message);
      },
      maxBufferSize: maxEventChars,
    });
  }

  /** Feeds raw bytes; text is decoded in streaming mode so split characters survive. */
  push(bytes: Uint8Array): void {
    if (this.dead) return;
    this.feed(this.decoder.decode(bytes, { stream: true }));
  }

  private feed(text: string): void {
    if (!text) return;
    this.endsInCr = text.endsWith('\r');
    this.parser.feed(text);
  }

  /**
   * Ends the stream. An event still open at the end is surfaced (marked `unterminated`) rather
   * than silently lost, so a cut-off stream shows what arrived.
   */
  end(): void {
    if (this.dead) return;
    this.feed(this.decoder.decode());
    // No LF can follow a CR at the end of the stream: it ends its line now, before the flush
    // below, so a CR-only stream's last event counts as complete (the LF only completes the CRLF).
    if (this.endsInCr) this.parser.feed('\n');
    this.flushing = true;
    this.parser.feed('\n\n');
    this.flushing = false;
  }
}
