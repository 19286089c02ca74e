/** A live-feed client for tests: speaks the real protocol over a real WebSocket. Test-only. */
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../companion/protocol/version';
import { parseServerMessage, type ServerMessage } from '../../companion/protocol/live';

export interface TestFeed {
  ws: WebSocket;
  messages: ServerMessage[];
  /** Frames that did not parse as protocol messages (must stay empty). */
  invalid: string[];
  closed: Promise<{ code: number; reason: string }>;
  send(msg: unknown): void;
  /** Resolves with the first message (already received or future) matching the predicate. */
  waitFor<T extends ServerMessage['type']>(
    type: T,
    pred?: (m: Extract<ServerMessage, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<ServerMessage, { type: T }>>;
  close(): void;
}

export function openFeed(
  url: string,
  opts: { origin?: string; hello?: Record<string, unknown> | null; token?: string; scope?: 'full' | 'usage' } = {},
): Promise<TestFeed> {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/api/live', opts.origin ? { origin: opts.origin } : {});
  const messages: ServerMessage[] = [];
  const invalid: string[] = [];
  const waiters: (() => void)[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data) => {
    const p = parseServerMessage(data.toString());
    if (p.ok) messages.push(p.message);
    else invalid.push(data.toString());
    for (const w of waiters.splice(0)) w();
  });
  const feed: TestFeed = {
    ws,
    messages,
    invalid,
    closed,
    send: (msg) => ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg)),
    waitFor: (type, pred, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ${type} within ${timeoutMs} ms; got ${messages.map((m) => m.type).join(', ')}`)),
          timeoutMs,
        );
        const check = () => {
          const m = messages.find((x) => x.type === type && (!pred || pred(x as never)));
          if (m) {
            clearTimeout(timer);
            resolve(m as never);
          } else waiters.push(check);
        };
        check();
      }),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.on('open', () => {
      if (opts.hello !== null)
        feed.send(opts.hello ?? { type: 'hello', token: opts.token ?? '', protocol: PROTOCOL_VERSION, scope: opts.scope ?? 'full' });
      resolve(feed);
    });
    ws.on('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })),
    );
    ws.on('error', reject);
  });
}
