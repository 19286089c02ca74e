/**
 * @module The capture flow of one forwarded request: what Codex sent, what came back (parsed as
 * it streams), how it ended. The forward path feeds it; addons read it; `toRecord()` freezes it
 * into the protocol's `ExchangeRecord`.
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
import { redactHeaders, type HeaderPairs } from '../proxy/headers';
import { maskUrl, maskUrlsInText, redactQuery } from '../lib/url-secrets';
import { createStreamDecoder, decodeBody, parseEncoding, type StreamDecoder } from '../proxy/decode';
import { describeError } from '../lib/log';
import type { AddonManager } from './addons';
import { ResponseAssembler } from './assembler';
import { extractIdentity } from './identity';
import { parseRateLimitEvent, parseRateLimitHeaders } from './ratelimits';
import { SseDecoder } from './sse';
import { isObj } from '../lib/json';
import { countedByCodex } from '../analysis/codex-count';

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

const PREVIEW_CHARS = 160;
/** A body that is not JSON is kept as text up to this many characters. */
const TEXT_BODY_CHARS = 64 * 1024;

const clipTextBody = (text: string): string => (text.length > TEXT_BODY_CHARS ? text.slice(0, TEXT_BODY_CHARS) + '…' : text);

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
  readonly events: StreamEvent[] = [];
  readonly assembler = new ResponseAssembler();
  private responseBody: unknown = undefined;
  private responseBodyNote: string | null = null;
  private bodyParts: Uint8Array[] = [];
  private bodyPartsBytes = 0;
  private isSse = false;
  private sse: SseDecoder | null = null;
  private decoder: StreamDecoder | null = null;
  private readonly maxCaptureBytes: number;
  /** Set when the flow ended: later hooks are ignored, so a flow ends exactly once. */
  private ended = false;

  constructor(
    init: FlowInit,
    private readonly addons: AddonManager,
  ) {
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
      this.requestBody = this.decodeJson(raw, encodingHeader, (note) => (this.requestBodyNote = note));
    }
    this.identity = extractIdentity(
      (n) => this.rawRequestHeaders.get(n) ?? null,
      this.requestBody,
      this.kind === 'model',
      this.transport === 'websocket',
    );
    if (this.route.modelRequested === null)
      this.route = { ...this.route, modelRequested: this.identity.model, modelSent: this.route.modelSent ?? this.identity.model };
    this.addons.triggerSync('request', this);
  }

  private decodeJson(raw: Uint8Array, encodingHeader: string | null, note: (n: string) => void): unknown {
    const encoding = parseEncoding(encodingHeader);
    if (!encoding) {
      note(`not decoded: unsupported content-encoding ${JSON.stringify(encodingHeader)}`);
      return undefined;
    }
    if (raw.byteLength > this.maxCaptureBytes) {
      note(`not captured: ${raw.byteLength} bytes exceed the capture limit of ${this.maxCaptureBytes}`);
      return undefined;
    }
    let plain: Uint8Array;
    try {
      plain = decodeBody(raw, encoding);
    } catch (err) {
      note(`not decoded: corrupt ${encoding} body (${describeError(err)})`);
      this.captureErrors.push(`request body: corrupt ${encoding} data`);
      return undefined;
    }
    const text = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      note(encoding === 'identity' ? 'not JSON; kept as text' : `decoded from ${encoding}; not JSON; kept as text`);
      return clipTextBody(text);
    }
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
    this.addons.triggerSync('responseHeaders', this);
  }

  /** A WebSocket turn that ended in a wrapped `error` frame: treated like an HTTP error reply. */
  setErrorReply(status: number, body: unknown): void {
    this.responseStatus = status;
    this.responseBody = body;
  }

  /** Raw response bytes as forwarded to Codex (possibly compressed). */
  pushResponseBytes(chunk: Uint8Array): void {
    if (this.ended) return;
    this.responseBytes += chunk.byteLength;
    this.decoder?.push(chunk);
  }

  private onPlainBytes(b: Uint8Array): void {
    if (this.sse) return this.sse.push(b);
    if (this.bodyPartsBytes + b.byteLength <= this.maxCaptureBytes) {
      this.bodyParts.push(b);
      this.bodyPartsBytes += b.byteLength;
    } else if (!this.responseBodyNote) {
      this.responseBodyNote = `response body larger than the capture limit of ${this.maxCaptureBytes} bytes; kept the first part`;
    }
  }

  private onSseEvent(eventName: string | undefined, data: string, unterminated: boolean): void {
    const ev = this.recordText(data, eventName ?? 'message', {
      source: 'data',
      ...(unterminated ? { invalid: 'the stream ended inside this event; SSE clients (Codex included) discard it' } : {}),
    });
    // `event: error` with text data is still the upstream's error, not a truncated stream.
    if (ev.invalid && !unterminated && ev.type === 'error') this.assembler.apply('error', data);
  }

  /**
   * Records one event from its text (see eventOfText) and returns it. `invalid`, when given,
   * marks the event even if its text is JSON.
   */
  recordText(text: string, fallbackType: string, opts: { source: 'data' | 'message'; invalid?: string }): StreamEvent {
    const ev: StreamEvent = { t: Date.now() - this.startedAt, ...eventOfText(text, fallbackType, opts.source) };
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
    this.addons.triggerSync('event', this, ev);
  }

  /** Capture lost bytes (queue full, decode failure): the record says so; forwarding was unaffected. */
  markIncomplete(reason: string): void {
    if (this.captureComplete) this.captureErrors.push(reason);
    this.captureComplete = false;
  }

  /** The upstream response ended (cleanly, or `resetBy` names how it broke). Fires `response`. */
  async finishResponse(resetBy?: string): Promise<void> {
    if (!(await this.close())) return;
    this.resolveStatus(resetBy);
    await this.addons.trigger('response', this);
  }

  /** No (complete) response: `aborted` when Codex left, `upstream_error` when the upstream failed. */
  async fail(status: 'aborted' | 'upstream_error', error: ExchangeError): Promise<void> {
    if (!(await this.close())) return;
    this.status = status;
    this.error = { ...error, message: maskUrlsInText(error.message) };
    await this.addons.trigger('error', this);
  }

  /** Flushes the decoders and marks the flow ended; false when it had already ended. */
  private async close(): Promise<boolean> {
    if (this.ended) return false;
    await this.decoder?.end();
    this.sse?.end();
    this.endedAt = Date.now();
    this.ended = true;
    return true;
  }

  private resolveStatus(resetBy?: string): void {
    const httpStatus = this.responseStatus ?? 0;
    if (!this.isSse && this.transport === 'http') this.parseResponseBody();
    if (httpStatus >= 400) {
      this.status = 'failed';
      this.error = this.httpError(httpStatus);
      return;
    }
    if (this.kind === 'other') {
      this.status = resetBy ? 'failed' : 'completed';
      if (resetBy) this.error = { code: 'stream_truncated', message: resetBy, upstreamCode: null };
      return;
    }
    const a = this.assembler;
    if (a.terminal) {
      this.status = a.terminal;
      this.error = a.error;
    } else if (!this.captureComplete) {
      this.status = 'failed';
      this.error = {
        code: 'capture_incomplete',
        message: 'the response reached Codex, but capture dropped part of it, so how it ended is unknown',
        upstreamCode: null,
      };
    } else if (a.error) {
      this.status = 'failed';
      this.error = a.error;
    } else {
      this.status = 'failed';
      this.error = {
        code: 'stream_truncated',
        message: resetBy ? `stream closed before response.completed (${resetBy})` : 'stream closed before response.completed',
        upstreamCode: null,
      };
    }
  }

  private parseResponseBody(): void {
    if (this.bodyParts.length === 0) return;
    const buf = Buffer.concat(this.bodyParts);
    this.bodyParts = [];
    const text = buf.toString('utf8');
    try {
      this.responseBody = JSON.parse(text);
    } catch {
      this.responseBody = clipTextBody(text);
    }
    // A non-streamed Responses reply (e.g. /responses/compact) is assembled from its JSON.
    const body = this.responseBody as Record<string, unknown> | null;
    if (this.kind === 'model' && body && typeof body === 'object' && (this.responseStatus ?? 0) < 400) {
      const status = typeof body.status === 'string' ? body.status : 'completed';
      const type = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
      this.assembler.apply(type, { response: body });
    }
  }

  private httpError(status: number): ExchangeError {
    const body = this.responseBody as { error?: Record<string, unknown> } | string | undefined;
    const e = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : null;
    const message = typeof e?.message === 'string' ? e.message : typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${status}`;
    const upstreamCode = typeof e?.type === 'string' ? e.type : typeof e?.code === 'string' ? e.code : null;
    return { code: `http_${status}`, message, upstreamCode };
  }

  /** Whether this exchange enters Codex's own `tokens used` (architecture.md, "As Codex counts"). */
  codexCounted(): boolean {
    const id = this.identity;
    return countedByCodex({
      kind: this.kind,
      role: id.role,
      status: this.status,
      requestKind: id.requestKind,
      compactionImplementation: id.compactionImplementation,
    });
  }

  toSummary(): ExchangeSummary {
    const text = this.assembler.text();
    return {
      id: this.id,
      kind: this.kind,
      transport: this.transport,
      status: this.status,
      startedAt: this.startedAt,
      firstByteAt: this.firstByteAt,
      endedAt: this.endedAt,
      method: this.method,
      path: this.path,
      httpStatus: this.responseStatus,
      model: this.assembler.model ?? this.identity.model,
      requestKind: this.identity.requestKind,
      sessionId: this.identity.sessionId,
      threadId: this.identity.threadId,
      parentThreadId: this.identity.parentThreadId,
      turnId: this.identity.turnId,
      agent: { role: this.identity.role, name: this.identity.agentName, nickname: this.identity.agentNickname },
      usage: this.assembler.usage,
      codexCounted: this.codexCounted(),
      error: this.error,
      captureComplete: this.captureComplete,
      route: this.route,
      responseId: this.assembler.responseId,
      preview: (text || this.callPreview())?.slice(0, PREVIEW_CHARS) || null,
      requestBytes: this.requestBytes,
      responseBytes: this.responseStatus === null ? null : this.responseBytes,
      cache: null,
      costUsd: null,
      facts: null,
      source: 'captured',
    };
  }

  /** For responses without text: the tool calls they make, e.g. `exec_command {"cmd":"ls"}`. */
  private callPreview(): string | null {
    const calls = this.assembler
      .output()
      .filter((i) => typeof i.name === 'string' && /_call$/.test(i.type))
      .map((i) => {
        const name = typeof i.namespace === 'string' ? `${i.namespace}.${String(i.name)}` : String(i.name);
        const args = typeof i.arguments === 'string' ? i.arguments : typeof i.input === 'string' ? i.input : '';
        return `${name} ${args.replace(/\s+/g, ' ')}`.trim();
      });
    return calls.length ? `→ ${calls.join('; ')}` : null;
  }

  toRecord(): ExchangeRecord {
    return {
      ...this.toSummary(),
      identity: this.identity,
      request: {
        method: this.method,
        path: this.path,
        query: this.query,
        upstreamUrl: this.upstreamUrl,
        headers: this.requestHeaders,
        bodyBytes: this.requestBytes ?? 0,
        bodyEncoding: this.requestEncoding,
        body: this.requestBody,
        bodyNote: this.requestBodyNote,
        ...(this.websocketMessage !== undefined ? { websocketMessage: this.websocketMessage } : {}),
      },
      response: {
        status: this.responseStatus,
        headers: this.responseHeaders,
        events: this.events,
        output: this.assembler.output(),
        ...(this.responseBody !== undefined ? { body: this.responseBody } : {}),
        bodyNote: this.responseBodyNote,
      },
      rateLimits: this.rateLimits,
      captureErrors: [...this.captureErrors],
    };
  }
}
