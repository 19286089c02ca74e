/**
 * One live-feed socket as a small channel (`send`, `onMessage`, `close`): stores and the feed
 * never touch `WebSocket` themselves, so tests hand them an in-memory fake instead.
 */
import type { ClientMessage } from '../../companion/protocol';

export interface CloseInfo {
  /** WebSocket close code: 1006 when the companion could not be reached or vanished. */
  code: number;
  reason: string;
}

export interface CompanionConnection {
  send(message: ClientMessage): void;
  onOpen(listener: () => void): void;
  /** Raw text frames; decoding is the caller's job (`parseServerMessage`). */
  onMessage(listener: (raw: string) => void): void;
  /** Called once, whether the socket closed, failed to open, or was closed by us. */
  onClose(listener: (info: CloseInfo) => void): void;
  close(code?: number, reason?: string): void;
}

export type ConnectionFactory = (url: string) => CompanionConnection;

/** The real channel: a browser WebSocket. */
export const webSocketConnection: ConnectionFactory = (url) => {
  const ws = new WebSocket(url);
  let closed = false;
  const closeListeners: ((info: CloseInfo) => void)[] = [];
  const fireClose = (info: CloseInfo) => {
    if (closed) return;
    closed = true;
    for (const l of closeListeners) l(info);
  };
  ws.addEventListener('close', (e) => fireClose({ code: e.code, reason: e.reason }));
  return {
    send: (message) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
    onOpen: (listener) => ws.addEventListener('open', () => listener()),
    onMessage: (listener) =>
      ws.addEventListener('message', (e) => {
        // Binary frames are not part of the protocol; the feed counts them as rejected text.
        listener(typeof e.data === 'string' ? e.data : '[binary frame]');
      }),
    onClose: (listener) => closeListeners.push(listener),
    close: (code = 1000, reason = '') => {
      try {
        ws.close(code, reason);
      } catch {
        ws.close(); // an invalid code or reason must not keep a socket open
      }
      fireClose({ code, reason: reason || 'closed by the extension' });
    },
  };
};
