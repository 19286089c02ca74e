/**
 * A raw Chrome DevTools Protocol client over `ws`, for targets Playwright hides (the DevTools
 * front-end and the extension panel iframe inside it). Test-only.
 */
import WebSocket from 'ws';

export interface CdpTarget {
  id: string;
  type: string;
  url: string;
  webSocketDebuggerUrl: string;
  /** For iframes: the target that embeds them. */
  parentId?: string;
}

export interface CdpSession {
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** `Runtime.evaluate` with promises awaited; returns the value, or throws the exception text. */
  evaluate<T>(expression: string): Promise<T>;
  close(): void;
}

export async function listTargets(port: number): Promise<CdpTarget[]> {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`);
  return (await res.json()) as CdpTarget[];
}

export async function attach(target: CdpTarget): Promise<CdpSession> {
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let id = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: { message: string } };
    if (m.id === undefined) return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p?.reject(new Error(m.error.message));
    else p?.resolve(m.result);
  });
  // A frozen or never-loaded frame can leave a call unanswered: fail it instead of hanging the test.
  const send = <T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 5000): Promise<T> =>
    new Promise((resolve, reject) => {
      const n = ++id;
      const timer = setTimeout(() => {
        pending.delete(n);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(n, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return {
    send,
    evaluate: async <T>(expression: string) => {
      const r = await send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
      );
      if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      return r.result.value as T;
    },
    close: () => ws.close(),
  };
}
