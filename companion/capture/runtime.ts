/**
 * @module The capture side of the worker protocol: turns the main thread's messages (copies of
 * forwarded bytes, heads, ends; WebSocket texts) into driven flows, answers its queries, and
 * acknowledges consumed bytes so the bounded channel on the main thread can take more.
 */
import type { AddonManager } from './addons';
import { FlowDriver } from './driver';
import type { ExchangeFlow } from './flow';
import type { FromWorker, ToWorker } from './messages';
import { WsCaptureSession } from './ws-session';

interface HttpFlow {
  driver: FlowDriver;
  request: Uint8Array[];
  requestBytes: number;
}

export class CaptureRuntime {
  private readonly http = new Map<string, HttpFlow>();
  private readonly ws = new Map<number, WsCaptureSession>();
  /** Flows that have started and not ended, HTTP and WebSocket, for in-flight record queries. */
  readonly live = new Map<string, ExchangeFlow>();
  private readonly running = new Set<Promise<void>>();
  private consumed = 0;
  private ackScheduled = false;
  private capturing: boolean;

  constructor(
    readonly addons: AddonManager,
    private readonly post: (m: FromWorker) => void,
    private readonly opts: { maxCaptureBytes: number; capturing: boolean },
  ) {
    this.capturing = opts.capturing;
    // Last: an exchange counts as in flight until every other addon is done with its end (the
    // store's among them), so a rollout import never finds it neither in flight nor stored.
    addons.addLast({
      name: 'in-flight',
      request: (f) => void this.live.set(f.id, f),
      response: (f) => void this.live.delete(f.id),
      error: (f) => void this.live.delete(f.id),
    });
  }

  handle(m: ToWorker): void {
    switch (m.t) {
      case 'open':
        this.http.set(m.id, {
          driver: new FlowDriver({ ...m.init, maxCaptureBytes: this.opts.maxCaptureBytes }, this.addons),
          request: [],
          requestBytes: 0,
        });
        return;
      case 'reqChunk': {
        this.consume(m.chunk.byteLength);
        const f = this.http.get(m.id);
        if (f) f.request.push(m.chunk);
        return;
      }
      case 'reqEnd':
        return this.requestEnded(m.id, m.bytes, m.lost);
      case 'head':
        return this.http.get(m.id)?.driver.responseHead(m.status, m.headers, { at: m.at });
      case 'chunk':
        this.consume(m.chunk.byteLength);
        return this.http.get(m.id)?.driver.responseBytes(m.chunk, m.at);
      case 'incomplete':
        return this.http.get(m.id)?.driver.flow.markIncomplete(m.reason);
      case 'end':
        return this.settle(m.id, (d) => d.finish(m.resetBy, m.at));
      case 'fail':
        return this.settle(m.id, (d) => d.fail(m.status, m.error, m.at));
      case 'wsOpen':
        this.ws.set(
          m.conn,
          new WsCaptureSession({
            ...m.init,
            maxCaptureBytes: this.opts.maxCaptureBytes,
            addons: this.addons,
            capturing: () => this.capturing,
            onRateLimits: (rateLimits) => this.post({ t: 'rateLimits', rateLimits }),
            onTurn: (open, turnId, clientMessages) => this.post({ t: 'wsTurn', conn: m.conn, open, turnId, clientMessages }),
          }),
        );
        return;
      case 'wsText': {
        const s = this.ws.get(m.conn);
        if (m.from === 'client') s?.onClientText(m.text, m.at);
        else s?.onServerText(m.text, m.at);
        return;
      }
      case 'wsBinary':
        return this.ws.get(m.conn)?.onBinary(m.from, m.bytes, m.at);
      case 'wsClose': {
        const s = this.ws.get(m.conn);
        this.ws.delete(m.conn);
        if (s) this.track(s.abort(m.reason, m.at));
        return;
      }
      case 'capturing':
        this.capturing = m.on;
        return;
      case 'query':
        if (m.q.q === 'record') {
          const flow = this.live.get(m.q.id);
          this.post({ t: 'answer', n: m.n, value: flow ? flow.toRecord() : null });
        } else void this.idle().then(() => this.post({ t: 'answer', n: m.n, value: true }));
        return;
    }
  }

  /** Whether an exchange that ended is still being worked on (its analysis, its storing). */
  busy(): boolean {
    return this.running.size > 0;
  }

  /** Resolves when every flow end started so far, and every hook it fired, has settled. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
    await Promise.all([...this.ws.values()].map((s) => s.idle()));
    await this.addons.idle();
  }

  private requestEnded(id: string, bytes: number, lost: string | null): void {
    const f = this.http.get(id);
    if (!f) return;
    const raw = f.request.length === 1 ? f.request[0] : Buffer.concat(f.request);
    f.request = []; // the body is held once: by the flow's parsed form, not also as bytes
    if (lost) {
      f.driver.request(null);
      const flow = f.driver.flow;
      flow.requestBytes = bytes;
      flow.requestBodyNote = `not captured: ${lost}`;
      return;
    }
    f.driver.request(bytes > 0 ? raw : null);
  }

  private settle(id: string, how: (d: FlowDriver) => Promise<void>): void {
    const f = this.http.get(id);
    if (!f) return;
    this.http.delete(id);
    this.track(how(f.driver));
  }

  private track(p: Promise<void>): void {
    const q = p
      .catch(() => {
        // hooks report their own failures through the addon manager
      })
      .finally(() => this.running.delete(q));
    this.running.add(q);
  }

  private consume(bytes: number): void {
    this.consumed += bytes;
    if (this.ackScheduled) return;
    this.ackScheduled = true;
    // One acknowledgement per turn of the worker's loop, not one per chunk.
    setImmediate(() => {
      this.ackScheduled = false;
      const n = this.consumed;
      this.consumed = 0;
      this.post({ t: 'ack', bytes: n });
    });
  }
}
