/**
 * @module Capture lifecycle hooks and the addons that consume them (store, live feed, …).
 * Every flow fires `request` once, then `responseHeaders` and `event`s as they arrive, and ends
 * with exactly one of `response` (the upstream answered) or `error` (it did not, or Codex left).
 * A throwing addon is logged with its name and counted; the flow and the forward go on.
 */
import type { StreamEvent } from '../protocol/exchange';
import { describeError, type Logger } from '../lib/log';
import type { ExchangeFlow } from './flow';

export interface CaptureAddon {
  readonly name: string;
  request?(flow: ExchangeFlow): void;
  responseHeaders?(flow: ExchangeFlow): void;
  event?(flow: ExchangeFlow, event: StreamEvent): void;
  response?(flow: ExchangeFlow): void | Promise<void>;
  error?(flow: ExchangeFlow): void | Promise<void>;
}

export type Hook = 'request' | 'responseHeaders' | 'event' | 'response' | 'error';

export class AddonManager {
  private readonly addons: CaptureAddon[] = [];
  /** How many addons at the end were added with `addLast`: they stay after every later `add`. */
  private last = 0;
  /** Failures per addon name, reported through the API. */
  readonly failures = new Map<string, number>();
  lastFailure: { addon: string; hook: Hook; message: string; at: number } | null = null;

  constructor(private readonly log: Logger) {}

  add(addon: CaptureAddon): void {
    this.addons.splice(this.addons.length - this.last, 0, addon);
  }

  /** Adds an addon that sees every hook after all others, however many are added later. */
  addLast(addon: CaptureAddon): void {
    this.addons.push(addon);
    this.last++;
  }

  private readonly running = new Set<Promise<void>>();

  /** Calls `hook` on every addon; never throws. Async hooks are awaited in order. */
  trigger(hook: Hook, flow: ExchangeFlow, event?: StreamEvent): Promise<void> {
    const p = this.run(hook, flow, event).finally(() => this.running.delete(p));
    this.running.add(p);
    return p;
  }

  /** Resolves when every hook call started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async run(hook: Hook, flow: ExchangeFlow, event?: StreamEvent): Promise<void> {
    for (const addon of this.addons) {
      const fn = addon[hook] as ((f: ExchangeFlow, e?: StreamEvent) => unknown) | undefined;
      if (!fn) continue;
      try {
        await fn.call(addon, flow, event);
      } catch (err) {
        this.fail(addon.name, hook, err);
      }
    }
  }

  /** The synchronous hooks (`event`, `request`, `responseHeaders`) on the hot path. */
  triggerSync(hook: 'request' | 'responseHeaders' | 'event', flow: ExchangeFlow, event?: StreamEvent): void {
    for (const addon of this.addons) {
      const fn = addon[hook] as ((f: ExchangeFlow, e?: StreamEvent) => unknown) | undefined;
      if (!fn) continue;
      try {
        fn.call(addon, flow, event);
      } catch (err) {
        this.fail(addon.name, hook, err);
      }
    }
  }

  private fail(name: string, hook: Hook, err: unknown): void {
    const message = describeError(err);
    this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
    this.lastFailure = { addon: name, hook, message, at: Date.now() };
    this.log.error(`addon ${name} failed in ${hook}: ${message}`);
  }
}
