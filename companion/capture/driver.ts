/**
 * @module Drives a passive flow: feeds it what the proxy saw and fires the addons' hooks in
 * their order (`request`, `responseHeaders`, `event`s, then exactly one of `response` or `error`).
 */
import type { ExchangeError, StreamEvent } from '../protocol/exchange';
import type { RateLimits } from '../protocol/ratelimits';
import type { HeaderPairs } from '../http/headers';
import type { AddonManager } from './addons';
import { ExchangeFlow, type FlowInit } from './flow';

export class FlowDriver {
  readonly flow: ExchangeFlow;

  constructor(
    init: FlowInit,
    private readonly addons: AddonManager,
  ) {
    this.flow = new ExchangeFlow(init);
  }

  request(raw: Uint8Array | null, opts: { decodedJson?: unknown } = {}): void {
    this.flow.setRequestBody(raw, opts);
    this.addons.triggerSync('request', this.flow);
  }

  responseHead(status: number, headers: HeaderPairs, opts: { at?: number; rateLimits?: RateLimits | null } = {}): void {
    this.flow.setResponseHead(status, headers, opts);
    this.addons.triggerSync('responseHeaders', this.flow);
  }

  responseBytes(chunk: Uint8Array, at?: number): void {
    this.fire(this.flow.pushResponseBytes(chunk, at));
  }

  /** One message's text (WebSocket): recorded as an event and returned. */
  text(text: string, fallbackType: string, opts: { source: 'data' | 'message'; invalid?: string; at?: number }): StreamEvent {
    const ev = this.flow.recordText(text, fallbackType, opts);
    this.fire([ev]);
    return ev;
  }

  event(ev: StreamEvent): void {
    this.flow.recordEvent(ev);
    this.fire([ev]);
  }

  async finish(resetBy?: string, at?: number): Promise<void> {
    const tail = await this.flow.finishResponse(resetBy, at);
    if (!tail) return;
    this.fire(tail);
    await this.addons.trigger('response', this.flow);
  }

  async fail(status: 'aborted' | 'upstream_error', error: ExchangeError, at?: number): Promise<void> {
    if (await this.flow.fail(status, error, at)) await this.addons.trigger('error', this.flow);
  }

  private fire(events: StreamEvent[]): void {
    for (const ev of events) this.addons.triggerSync('event', this.flow, ev);
  }
}
