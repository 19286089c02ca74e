/**
 * @module Capture of one relayed Responses WebSocket: each `response.create` … terminal event
 * becomes one exchange. A message that continues a `previous_response_id` carries only the new
 * input; the full input is rebuilt from the earlier exchange on this connection (its input plus
 * its output), exactly as an HTTP request would have carried it.
 */
import type { RateLimits } from '../protocol/ratelimits';
import type { AddonManager } from './addons';
import type { WsOpen } from './messages';
import { FlowDriver } from './driver';
import { eventOfText } from './flow';
import { newExchangeId } from './ids';
import { parseRateLimitEvent, rateLimitsOfHeaders } from './ratelimits';
import { isObj, type Json } from '../lib/json';

/** How many earlier responses per connection are kept for chaining (chains use the latest). */
const KEEP_RESPONSES = 16;

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The relayed connection as the main thread announced it, and what capture adds to it. */
export interface WsSessionInit extends WsOpen {
  maxCaptureBytes: number;
  addons: AddonManager;
  capturing(): boolean;
  onRateLimits(r: RateLimits): void;
  /**
   * A turn opened (Codex sent `response.create`) or ended (a terminal or error event), whether
   * or not it is captured; `clientMessages` counts Codex's text messages seen so far, so the relay
   * knows the report is about everything it has forwarded.
   */
  onTurn(open: boolean, turnId: string | null, clientMessages: number): void;
}

export class WsCaptureSession {
  private readonly responses = new Map<string, { input: unknown[]; output: unknown[] }>();
  current: FlowDriver | null = null;
  private currentInput: unknown[] | null = null;
  private inTurn = false;
  private clientMessages = 0;
  /** Turn ends still flushing: `idle` and `abort` wait for them, so no finished turn is missed. */
  private readonly ending = new Set<Promise<void>>();
  /**
   * The 101's rate-limit headers, read once with the handshake's own time: every turn on the
   * connection carries them, and a turn without a `codex.rate_limits` message must not make
   * them look newer than the readings that came since.
   */
  private readonly handshakeRateLimits: RateLimits | null;

  constructor(private readonly init: WsSessionInit) {
    this.handshakeRateLimits = rateLimitsOfHeaders(init.upgradeResponseHeaders, init.upgradedAt);
    if (this.handshakeRateLimits) init.onRateLimits(this.handshakeRateLimits);
  }

  /** A text message Codex sent (already forwarded at `at`, the forward path's clock; now by default). */
  onClientText(text: string, at = Date.now()): void {
    this.clientMessages++;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.report(); // not JSON: relayed as is, nothing to capture
    }
    if (!isObj(msg) || msg.type !== 'response.create') return this.report();
    if (this.current) this.track(this.abortCurrent('Codex sent a new request before the previous one ended', at));
    this.inTurn = true;
    if (!this.init.capturing()) return this.report();
    const flow = new FlowDriver(
      {
        id: newExchangeId(at),
        transport: 'websocket',
        method: 'WS',
        path: this.init.path,
        query: this.init.query,
        upstreamUrl: this.init.upstreamUrl,
        requestHeaders: this.init.handshakeHeaders,
        route: { ...this.init.route },
        maxCaptureBytes: this.init.maxCaptureBytes,
        startedAt: at,
      },
      this.init.addons,
    );
    const { type: _type, ...request } = msg;
    const newInput = Array.isArray(msg.input) ? msg.input : [];
    const prev = typeof msg.previous_response_id === 'string' ? msg.previous_response_id : null;
    let fullInput = newInput;
    let note: string | null = null;
    if (prev) {
      const earlier = this.responses.get(prev);
      if (earlier) fullInput = [...earlier.input, ...earlier.output, ...newInput];
      else {
        note = `previous_response_id ${prev} was not seen on this connection; only the new input items are shown`;
        flow.flow.markIncomplete(note);
      }
    }
    const body: Json = { ...request, input: fullInput };
    delete body.previous_response_id;
    flow.flow.websocketMessage = msg;
    flow.request(Buffer.from(text), { decodedJson: body });
    if (note) flow.flow.requestBodyNote = note;
    flow.responseHead(101, this.init.upgradeResponseHeaders, { at, rateLimits: this.handshakeRateLimits });
    this.current = flow;
    this.currentInput = fullInput;
    this.report();
  }

  private report(): void {
    this.init.onTurn(this.inTurn, this.current?.flow.identity.turnId ?? null, this.clientMessages);
  }

  /** A text message the upstream sent (already forwarded at `at`; now by default). */
  onServerText(text: string, at = Date.now()): void {
    const flow = this.current;
    const { type, data: msg } = flow ? flow.text(text, 'message', { source: 'message', at }) : eventOfText(text, 'message', 'message');
    // Every reading reaches the live state here, once: recordEvent has parsed it into the flow;
    // with nothing captured (paused, between turns) it is parsed here.
    if (type === 'codex.rate_limits' && isObj(msg)) this.init.onRateLimits(flow?.flow.rateLimits ?? parseRateLimitEvent(msg, at));
    if (this.inTurn && (TERMINAL.has(type) || type === 'error')) {
      this.inTurn = false;
      if (!flow) this.report();
    }
    if (!flow) return;
    if (TERMINAL.has(type)) this.track(this.finish(at));
    else if (type === 'error' && isObj(msg)) {
      // A wrapped error (`{type:"error", status_code, error, headers}`) ends the request like an HTTP error.
      if (typeof msg.status_code === 'number') flow.flow.setErrorReply(msg.status_code, { error: msg.error });
      this.track(this.finish(at));
    }
  }

  /** A binary message (not part of the protocol): relayed, noted in the event log. */
  onBinary(direction: 'client' | 'server', bytes: number, at = Date.now()): void {
    const flow = this.current;
    if (!flow) return;
    flow.event({
      t: at - flow.flow.startedAt,
      type: 'binary',
      data: { from: direction, bytes },
      invalid: 'binary frame (Codex treats these as an error)',
    });
  }

  private async finish(at: number): Promise<void> {
    const flow = this.current;
    if (!flow) return;
    this.current = null;
    const id = flow.flow.assembler.responseId;
    if (id && this.currentInput) {
      this.responses.set(id, { input: this.currentInput, output: flow.flow.assembler.output() });
      if (this.responses.size > KEEP_RESPONSES) this.responses.delete(this.responses.keys().next().value as string);
    }
    this.currentInput = null;
    this.report();
    await flow.finish(undefined, at);
  }

  /** The connection ended (either side): the exchange in flight is aborted, after every turn end before it. */
  async abort(reason: string, at = Date.now()): Promise<void> {
    await this.abortCurrent(reason, at);
    await this.idle();
  }

  /** Resolves when every turn end started so far has fired its hooks. */
  async idle(): Promise<void> {
    while (this.ending.size > 0) await Promise.all([...this.ending]);
  }

  private track(p: Promise<void>): void {
    const q = p.finally(() => this.ending.delete(q));
    this.ending.add(q);
  }

  private async abortCurrent(reason: string, at: number): Promise<void> {
    const flow = this.current;
    if (!flow) return;
    this.current = null;
    this.currentInput = null;
    this.inTurn = false;
    await flow.fail('aborted', { code: 'connection_closed', message: reason, upstreamCode: null }, at);
  }
}
