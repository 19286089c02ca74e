/**
 * @module The capture flow of one forwarded request, passive (the mitmproxy model): what Codex
 * sent, what came back (parsed as it streams), how it ended. It holds data and takes intake;
 * the driver (driver.ts) feeds it and fires the addons' hooks; record.ts freezes it into the
 * protocol's summary and record.
 */
import type {
  ExchangeError,
  ExchangeKind,
  ExchangeRecord,
  ExchangeStatus,
  ExchangeSummary,
  Route,
  StreamEvent,
  Transport,
} from '../protocol/exchange';
import type { Identity } from '../protocol/identity';
import type { RateLimits } from '../protocol/ratelimits';
import { redactHeaders, type HeaderPairs } from '../http/headers';
import { maskUrl, maskUrlsInText, redactQuery } from '../lib/url-secrets';
import { createStreamDecoder, parseEncoding, type StreamDecoder } from '../http/decode';
import { describeError } from '../lib/log';
import { ResponseAssembler } from './assembler';
import { decodeRequestBody, parseResponseBody } from './body';
import { extractIdentity } from './identity';
import { outcomeOf } from './outcome';
import { parseRateLimitEvent, parseRateLimitHeaders } from './ratelimits';
import { recordOfFlow, summaryOfFlow } from './record';
import { SseDecoder } from './sse';
import { isObj } from '../lib/json';

export interface FlowInit {
  id: string;
  transport: Transport;
  method: string;
  /** Path as Codex requested it, e.g. `/v1/responses`. */
  path: string;
  query: string;
  upstreamUrl: string | null;
  requestHeaders: HeaderPairs;
  route: Route;
  startedAt?: number;
  /** Largest body (request or non-streamed response) decoded for capture. */
  maxCaptureBytes: number;
}

/**
 * One event from its text (an SSE event's `data`, a WebSocket message): the parsed JSON, or the
 * text itself marked invalid. Its type is the JSON's `type`, else `fallbackType`.
 */
export function eventOfText(text: string, fallbackType: string, source: 'data' | 'message'): Omit<StreamEvent, 't'> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { type: fallbackType, data: text, invalid: `${source} is not valid JSON` };
  }
  const type = isObj(data) && typeof data.type === 'string' ? data.type : fallbackType;
  return { type, data };
}

/** Responses API requests are model exchanges; everything else forwarded is `other`. */
export function isModelPath(method: string, path: string): boolean {
  return method === 'POST' && /\/responses(\/compact)?$/.test(path);
}

export class ExchangeFlow {
  readonly id: string;
  readonly kind: ExchangeKind;
  readonly transport: Transport;
  readonly startedAt: number;
  firstByteAt: number | null = null;
  endedAt: number | null = null;
  status: ExchangeStatus = 'streaming';
  error: ExchangeError | null = null;
  identity: Identity;
  route: Route;
  readonly captureErrors: string[] = [];
  captureComplete = true;
  rateLimits: RateLimits | null = null;

  readonly method: string;
  readonly path: string;
  readonly query: string;
  upstreamUrl: string | null;
  readonly requestHeaders: Record<string, string>;
  private readonly rawRequestHeaders: Map<string, string>;
  requestBytes: number | null = null;
  requestEncoding: string | null = null;
  requestBody: unknown = undefined;
  requestBodyNote: string | null = null;
  websocketMessage: unknown = undefined;

  responseStatus: number | null = null;
  responseHeaders: Record<string, string> = {};
  responseBytes = 0;
  /**
   * When the forward path saw the bytes being parsed now: its clock, not this thread's, since
   * capture may run behind forwarding (a burst leaves a backlog); null when the caller gave none.
   */
  private heardAt: number | null = null;
  readonly events: StreamEvent[] = [];
  readonly assembler = new ResponseAssembler();
  responseBody: unknown = undefined;
  responseBodyNote: string | null = null;
  private bodyParts: Uint8Array[] = [];
  private bodyPartsBytes = 0;
  private isSse = false;
  private sse: SseDecoder | null = null;
  private decoder: StreamDecoder | null = null;
  private readonly maxCaptureBytes: number;
  /** Set when the flow ended: later hooks are ignored, so a flow ends exactly once. */
  private ended = false;

  /** Events parsed from the bytes being pushed, handed to the driver (see `pushResponseBytes`). */
  private parsed: StreamEvent[] = [];

  constructor(init: FlowInit) {
    this.id = init.id;
    this.transport = init.transport;
    this.method = init.method;
    this.path = init.path;
    this.query = redactQuery(init.query);
    // Configured URLs may carry credentials (userinfo, `?api-key=`): records keep them masked.
    this.upstreamUrl = init.upstreamUrl ? maskUrl(init.upstreamUrl) : null;
    this.kind = isModelPath(init.method, init.path) || init.transport === 'websocket' ? 'model' : 'other';
    this.startedAt = init.startedAt ?? Date.now();
    this.route = { ...init.route, upstream: maskUrl(init.route.upstream) };
    this.maxCaptureBytes = init.maxCaptureBytes;
    this.rawRequestHeaders = new Map(init.requestHeaders);
    this.requestHeaders = redactHeaders(init.requestHeaders);
    this.identity = extractIdentity((n) => this.rawRequestHeaders.get(n) ?? null, undefined, this.kind === 'model');
  }

  /** Records the request body as Codex sent it, decoded for capture, and derives identity. */
  setRequestBody(raw: Uint8Array | null, opts: { decodedJson?: unknown } = {}): void {
    this.requestBytes = raw ? raw.byteLength : 0;
    const encodingHeader = this.rawRequestHeaders.get('content-encoding') ?? null;
    this.requestEncoding = encodingHeader;
    if (opts.decodedJson !== undefined) {
      this.requestBody = opts.decodedJson;
    } else if (raw && raw.byteLength > 0) {
      const d = decodeRequestBody(raw, encodingHeader, this.maxCaptureBytes);
      this.requestBody = d.body;
      if (d.note) this.requestBodyNote = d.note;
      if (d.error) this.captureErrors.push(d.error);
    }
    this.identity = extractIdentity(
      (n) => this.rawRequestHeaders.get(n) ?? null,
      this.requestBody,
      this.kind === 'model',
      this.transport === 'websocket',
    );
    if (this.route.modelRequested === null)
      this.route = { ...this.route, modelRequested: this.identity.model, modelSent: this.route.modelSent ?? this.identity.model };
  }

  /**
   * The upstream answered: status and headers, which arrived at `at` (now by default; the forward
   * path records them later, off its hot path). A WebSocket turn passes its connection's 101 with
   * the rate limits already read from it at the handshake (`rateLimits`), so they keep that time.
   */
  setResponseHead(status: number, headers: HeaderPairs, opts: { at?: number; rateLimits?: RateLimits | null } = {}): void {
    if (this.ended) return;
    const at = opts.at ?? Date.now();
    this.firstByteAt ??= at;
    this.responseStatus = status;
    this.responseHeaders = redactHeaders(headers);
    const map = new Map(headers);
    const contentType = map.get('content-type') ?? '';
    this.isSse = contentType.toLowerCase().includes('text/event-stream');
    this.rateLimits =
      opts.rateLimits !== undefined ? opts.rateLimits : parseRateLimitHeaders([...map.keys()], (n) => map.get(n) ?? null, at);
    const encoding = parseEncoding(map.get('content-encoding') ?? null);
    if (this.isSse) {
      this.sse = new SseDecoder({
        onEvent: (e) => this.onSseEvent(e.event, e.data, e.unterminated),
        onError: (m) => this.captureErrors.push(`sse: ${m}`),
      });
    }
    if (!encoding) {
      this.captureErrors.push(`response body not decoded: unsupported content-encoding ${JSON.stringify(map.get('content-encoding'))}`);
      this.captureComplete = false;
    } else {
      this.decoder = createStreamDecoder(
        encoding,
        (b) => this.onPlainBytes(b),
        (e) => {
          this.captureErrors.push(`response body: corrupt ${encoding} data (${describeError(e)})`);
          this.captureComplete = false;
        },
      );
    }
  }

  /** A WebSocket turn that ended in a wrapped `error` frame: treated like an HTTP error reply. */
  setErrorReply(status: number, body: unknown): void {
    this.responseStatus = status;
    this.responseBody = body;
  }

  /**
   * Raw response bytes as forwarded to Codex (possibly compressed), which the forward path saw
   * at `at` (now by default); returns the events they completed.
   */
  pushResponseBytes(chunk: Uint8Array, at?: number): StreamEvent[] {
    if (this.ended) return [];
    this.heardAt = at ?? null;
    this.responseBytes += chunk.byteLength;
    this.decoder?.push(chunk);
    return this.takeParsed();
  }

  private takeParsed(): StreamEvent[] {
    const out = this.parsed;
    this.parsed = [];
    return out;
  }

  private onPlainBytes(b: Uint8Array): void {
    if (this.sse) return this.sse.push(b);
    if (this.bodyPartsBytes + b.byteLength <= this.maxCaptureBytes) {
      this.bodyParts.push(b);
      this.bodyPartsBytes += b.byteLength;
    } else if (!this.responseBodyNote) {
      this.responseBodyNote = `response body larger than the capture limit of ${this.maxCaptureBytes} bytes; kept the first part`;
      this.markIncomplete(this.responseBodyNote);
    }
  }

  private onSseEvent(eventName: string | undefined, data: string, unterminated: boolean): void {
    const ev = this.recordText(data, eventName ?? 'message', {
      source: 'data',
      ...(unterminated ? { invalid: 'the stream ended inside this event; SSE clients (Codex included) discard it' } : {}),
    });
    // `event: error` with text data is still the upstream's error, not a truncated stream.
    if (ev.invalid && !unterminated && ev.type === 'error') this.assembler.apply('error', data);
    this.parsed.push(ev);
  }

  /**
   * Records one event from its text (see eventOfText) and returns it. `invalid`, when given,
   * marks the event even if its text is JSON.
   */
  recordText(text: string, fallbackType: string, opts: { source: 'data' | 'message'; invalid?: string; at?: number }): StreamEvent {
    const ev: StreamEvent = {
      t: (opts.at ?? this.heardAt ?? Date.now()) - this.startedAt,
      ...eventOfText(text, fallbackType, opts.source),
    };
    if (opts.invalid) ev.invalid = opts.invalid;
    this.recordEvent(ev);
    return ev;
  }

  /** Adds one event (from SSE or a WebSocket message) and applies it to the assembly. */
  recordEvent(ev: StreamEvent): void {
    this.events.push(ev);
    if (!ev.invalid) {
      this.assembler.apply(ev.type, ev.data);
      if (ev.type === 'codex.rate_limits' && ev.data && typeof ev.data === 'object') {
        this.rateLimits = parseRateLimitEvent(ev.data as Record<string, unknown>, this.startedAt + ev.t);
      }
    }
  }

  /** Capture lost bytes (queue full, decode failure): the record says so; forwarding was unaffected. */
  markIncomplete(reason: string): void {
    if (this.captureComplete) this.captureErrors.push(reason);
    this.captureComplete = false;
  }

  /**
   * The upstream response ended (cleanly, or `resetBy` names how it broke): flushes the decoders
   * and settles the status. Returns the events the flush completed, or null when the flow had
   * already ended (a flow ends exactly once).
   */
  async finishResponse(resetBy?: string, at?: number): Promise<StreamEvent[] | null> {
    if (!(await this.close(at))) return null;
    const tail = this.takeParsed();
    if (!this.isSse && this.transport === 'http') this.parseResponseBody();
    const o = outcomeOf({
      kind: this.kind,
      httpStatus: this.responseStatus ?? 0,
      assembler: this.assembler,
      captureComplete: this.captureComplete,
      responseBody: this.responseBody,
      nonStreamed: !this.isSse && this.transport === 'http',
      resetBy,
    });
    this.status = o.status;
    this.error = o.error;
    return tail;
  }

  /** No (complete) response: `aborted` when Codex left, `upstream_error` when the upstream failed. False if already ended. */
  async fail(status: 'aborted' | 'upstream_error', error: ExchangeError, at?: number): Promise<boolean> {
    if (!(await this.close(at))) return false;
    this.parsed = [];
    this.status = status;
    this.error = { ...error, message: maskUrlsInText(error.message) };
    return true;
  }

  /** Flushes the decoders and marks the flow ended (at `at`, now by default); false when it had already ended. */
  private async close(at?: number): Promise<boolean> {
    if (this.ended) return false;
    this.ended = true;
    this.heardAt = at ?? null;
    await this.decoder?.end();
    this.sse?.end();
    this.endedAt = at ?? Date.now();
    return true;
  }

  private parseResponseBody(): void {
    if (this.bodyParts.length === 0) return;
    this.responseBody = parseResponseBody(this.bodyParts);
    this.bodyParts = [];
    // A non-streamed Responses reply (e.g. /responses/compact) is assembled from its JSON.
    const body = this.responseBody as Record<string, unknown> | null;
    if (this.kind === 'model' && body && typeof body === 'object' && (this.responseStatus ?? 0) < 400) {
      const status = typeof body.status === 'string' ? body.status : 'completed';
      const type = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
      this.assembler.apply(type, { response: body });
    }
  }

  toSummary(): ExchangeSummary {
    return summaryOfFlow(this);
  }

  toRecord(): ExchangeRecord {
    return recordOfFlow(this);
  }
}
