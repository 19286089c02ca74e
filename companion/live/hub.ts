/**
 * @module The live hub: authenticates feed clients (hello with token and protocol version),
 * sends each a snapshot, then fans out `resource/verb` messages. Progress is throttled per
 * exchange; output text goes only to clients subscribed to that exchange.
 */
import type { WebSocket } from 'ws';
import { tokenMatches } from '../api/security';
import type { Logger } from '../lib/log';
import type { ExchangeSummary } from '../protocol/exchange';
import type { CaptureState, ClientMessage, Parsed, LivePreview, LiveUsage, ServerMessage } from '../protocol/live';
import type { ProfilePublic } from '../protocol/profile';
import type { RateLimits } from '../protocol/ratelimits';
import { PROTOCOL_VERSION } from '../protocol/version';
import { COMPANION_VERSION } from '../version';
import { LiveClient, type ClientLimits } from './client';
import type { LiveText } from './live-text';

export interface HubSources {
  token(): string;
  recentExchanges(limit: number): ExchangeSummary[];
  usage(): LiveUsage;
  rateLimits(): RateLimits | null;
  profile(): ProfilePublic;
  capture(): CaptureState;
  /** Responses streaming now. */
  streaming(): number;
}

export interface HubOptions extends Partial<ClientLimits> {
  helloTimeoutMs?: number;
  heartbeatMs?: number;
  progressIntervalMs?: number;
  snapshotSize?: number;
}

/** What the hub needs to know about a streaming exchange to report progress. */
export interface ProgressSource {
  id: string;
  events: number;
  /** Characters streamed so far, every kind of delta. */
  chars: number;
  /** Estimated output tokens so far, counted in the capture worker (every delta, o200k). */
  tokens: number;
  preview: LivePreview | null;
  live: LiveText;
}

type Outgoing = ServerMessage extends infer M ? (M extends { seq: number } ? Omit<M, 'seq'> : never) : never;

/** Close codes in the application range (4000–4999). */
/** Exchanges one client may follow the text of at once (the panel follows one). */
export const MAX_SUBSCRIPTIONS = 32;

export const CLOSE = { badHello: 4400, unauthorized: 4401, helloTimeout: 4408, protocolMismatch: 4426, dropped: 4429 } as const;

/** Exchanges a full client's snapshot carries. */
export const DEFAULT_SNAPSHOT_SIZE = 200;

export class LiveHub {
  private readonly clients = new Set<LiveClient>();
  private readonly progress = new Map<string, { source: ProgressSource; timer: NodeJS.Timeout | null; dirty: boolean }>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly opts: Required<HubOptions>;

  constructor(
    private readonly sources: HubSources,
    private readonly log: Logger,
    opts: HubOptions = {},
  ) {
    this.opts = {
      helloTimeoutMs: 5000,
      heartbeatMs: 20_000,
      progressIntervalMs: 100,
      snapshotSize: DEFAULT_SNAPSHOT_SIZE,
      maxQueueBytes: 4 * 1024 * 1024,
      highWaterBytes: 1024 * 1024,
      stuckMs: 30_000,
      ...opts,
    };
    this.heartbeat = setInterval(() => this.beat(), this.opts.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Clients that said hello (a socket still waiting for its hello is not a client yet). */
  get size(): number {
    let n = 0;
    for (const c of this.clients) if (c.ready) n++;
    return n;
  }

  /** Takes over an upgraded socket; `parse` reads its messages (passed in: the schemas load with the first client). */
  attach(ws: WebSocket, parse: (raw: string) => Parsed<ClientMessage>): void {
    const client = new LiveClient(ws, this.opts, (c, why) => this.drop(c, why));
    this.clients.add(client);
    const helloTimer = setTimeout(
      () => this.refuse(client, CLOSE.helloTimeout, 'hello_timeout', `no hello within ${this.opts.helloTimeoutMs} ms`),
      this.opts.helloTimeoutMs,
    );
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.badMessage(client, 'binary frames are not part of the protocol');
      this.onMessage(client, parse(data.toString()), helloTimer);
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      client.close();
      this.clients.delete(client);
    });
    ws.on('error', (err) => this.log.debug(`live client error: ${err.message}`));
  }

  private onMessage(client: LiveClient, parsed: Parsed<ClientMessage>, helloTimer: NodeJS.Timeout): void {
    if (!parsed.ok) {
      if (!client.ready)
        return this.refuse(client, CLOSE.badHello, 'bad_message', `the first message must be a valid hello (${parsed.error})`);
      return this.badMessage(client, parsed.error);
    }
    const m = parsed.message;
    if (!client.ready) {
      if (m.type !== 'hello') return this.refuse(client, CLOSE.badHello, 'bad_message', 'the first message must be a hello');
      clearTimeout(helloTimer);
      if (!tokenMatches(m.token, this.sources.token()))
        return this.refuse(
          client,
          CLOSE.unauthorized,
          'unauthorized',
          'wrong pairing token: pair the extension again (`codex-devtools token`)',
        );
      if (m.protocol !== PROTOCOL_VERSION) {
        const update = m.protocol < PROTOCOL_VERSION ? 'extension' : 'companion';
        return this.refuse(
          client,
          CLOSE.protocolMismatch,
          'protocol_mismatch',
          `the extension speaks protocol ${m.protocol} and the companion ${PROTOCOL_VERSION}: update the ${update}`,
          update,
        );
      }
      client.scope = m.scope;
      client.ready = true;
      this.sendSnapshot(client);
      return;
    }
    switch (m.type) {
      case 'hello':
        return this.badMessage(client, 'already said hello');
      case 'feed/resync':
        // A snapshot still queued for this client, with everything queued after it, already
        // brings it up to date; one the client is too far behind to take would be dropped.
        if (client.snapshotQueued || client.resetting) return;
        return this.sendSnapshot(client);
      case 'exchange/subscribe':
        if (client.scope === 'usage') return this.badMessage(client, 'usage clients cannot subscribe to exchanges');
        if (client.subscriptions.has(m.id)) return;
        if (client.subscriptions.size >= MAX_SUBSCRIPTIONS)
          return this.badMessage(client, `at most ${MAX_SUBSCRIPTIONS} exchange subscriptions per connection: unsubscribe one first`);
        client.subscriptions.add(m.id);
        client.textSent.set(m.id, new Map());
        this.markDirty(m.id);
        return;
      case 'exchange/unsubscribe':
        client.subscriptions.delete(m.id);
        client.textSent.delete(m.id);
        return;
    }
  }

  private sendSnapshot(client: LiveClient): void {
    client.sendSnapshot(
      JSON.stringify({
        type: 'feed/snapshot',
        protocol: PROTOCOL_VERSION,
        companionVersion: COMPANION_VERSION,
        exchanges: client.scope === 'full' ? this.sources.recentExchanges(this.opts.snapshotSize) : [],
        streaming: this.sources.streaming(),
        usage: this.sources.usage(),
        rateLimits: this.sources.rateLimits(),
        profile: this.sources.profile(),
        capture: this.sources.capture(),
      }),
    );
  }

  private refuse(client: LiveClient, code: number, errorCode: string, message: string, update?: 'extension' | 'companion'): void {
    client.sendRaw(JSON.stringify({ type: 'feed/error', code: errorCode, message, ...(update ? { update } : {}) }));
    client.ws.close(code, message.slice(0, 120));
  }

  private badMessage(client: LiveClient, message: string): void {
    client.sendRaw(JSON.stringify({ type: 'feed/error', code: 'bad_message', message }));
  }

  private drop(client: LiveClient, why: string): void {
    this.log.warn(`live feed: dropped a client (${why})`);
    client.close();
    client.ws.close(CLOSE.dropped, why);
    setTimeout(() => client.ws.terminate(), 1000).unref();
    this.clients.delete(client);
  }

  /** Sends a message to every ready client in scope; with none, it is not even serialised. */
  broadcast(msg: Outgoing, scopes: ('full' | 'usage')[] = ['full']): void {
    let body: string | null = null;
    for (const c of this.clients) if (c.ready && scopes.includes(c.scope)) c.send((body ??= JSON.stringify(msg)));
  }

  exchangeStarted(s: ExchangeSummary): void {
    this.broadcast({ type: 'exchange/started', exchange: s });
  }

  exchangeCompleted(s: ExchangeSummary): void {
    this.flushProgress(s.id);
    this.progress.delete(s.id);
    this.broadcast({ type: 'exchange/completed', exchange: s });
  }

  exchangeUpdated(s: ExchangeSummary): void {
    this.broadcast({ type: 'exchange/updated', exchange: s });
  }

  usageUpdated(usage: LiveUsage): void {
    this.broadcast({ type: 'usage/updated', usage }, ['full', 'usage']);
  }

  rateLimitsUpdated(rateLimits: RateLimits): void {
    this.broadcast({ type: 'ratelimits/updated', rateLimits }, ['full', 'usage']);
  }

  profileChanged(profile: ProfilePublic): void {
    this.broadcast({ type: 'profile/changed', profile }, ['full', 'usage']);
  }

  captureChanged(capture: CaptureState): void {
    this.broadcast({ type: 'capture/changed', capture }, ['full', 'usage']);
  }

  /** The number of streaming responses changed: every scope hears it (the background's badge shows activity). */
  activityChanged(streaming: number): void {
    this.broadcast({ type: 'activity/changed', streaming }, ['full', 'usage']);
  }

  reset(reason: string): void {
    this.broadcast({ type: 'feed/reset', reason }, ['full', 'usage']);
  }

  /** Notes that a streaming exchange has new events; progress goes out at most every interval. */
  exchangeProgress(source: ProgressSource): void {
    let p = this.progress.get(source.id);
    if (!p) {
      p = { source, timer: null, dirty: false };
      this.progress.set(source.id, p);
    }
    p.source = source;
    this.markDirty(source.id);
  }

  private markDirty(id: string): void {
    const p = this.progress.get(id);
    if (!p) return;
    p.dirty = true;
    if (p.timer) return;
    p.timer = setTimeout(() => {
      p.timer = null;
      this.flushProgress(id);
    }, this.opts.progressIntervalMs);
  }

  private flushProgress(id: string): void {
    const p = this.progress.get(id);
    if (!p || !p.dirty) return;
    if (p.timer) clearTimeout(p.timer);
    p.timer = null;
    // Nobody to tell (DevTools closed): stay dirty; the next event after a client arrives catches up.
    if (![...this.clients].some((c) => c.ready && c.scope === 'full')) return;
    p.dirty = false;
    const src = p.source;
    const base = {
      type: 'exchange/progress' as const,
      id,
      events: src.events,
      outputChars: src.chars,
      estimatedOutputTokens: src.tokens,
      preview: src.preview,
    };
    const plain = JSON.stringify(base);
    let more = false;
    for (const c of this.clients) {
      if (!c.ready || c.scope !== 'full') continue;
      const sent = c.subscriptions.has(id) ? c.textSent.get(id) : undefined;
      if (!sent) {
        c.send(plain);
        continue;
      }
      const next = src.live.unsent(sent);
      more ||= next.more;
      c.send(JSON.stringify({ ...base, items: next.items }));
    }
    // A subscriber's catch-up was cut to the per-message budget: the rest goes out next interval.
    if (more) this.markDirty(id);
  }

  private beat(): void {
    const body = JSON.stringify({ type: 'feed/heartbeat', at: Date.now() });
    for (const c of this.clients) if (c.ready) c.sendRaw(body);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const p of this.progress.values()) if (p.timer) clearTimeout(p.timer);
    for (const c of this.clients) {
      c.close();
      c.ws.terminate();
    }
    this.clients.clear();
  }
}
