/**
 * An in-memory stand-in for the live feed's WebSocket (`CompanionConnection`), so store and
 * component tests drive the real connection store without a socket. Test-only.
 */
import type { ClientMessage, ServerMessage } from '../../companion/protocol';
import type { CloseInfo, CompanionConnection, ConnectionFactory } from '../../extension/lib/companion-connection';

export interface FakeSocket extends CompanionConnection {
  url: string;
  sent: ClientMessage[];
  closed: CloseInfo | null;
  /** The companion accepts the socket (the store then sends its hello). */
  accept(): void;
  /** Delivers a frame: a message object (serialised) or raw text. */
  deliver(message: ServerMessage | Record<string, unknown> | string): void;
  /** The companion (or the network) closes the socket. */
  drop(code?: number, reason?: string): void;
}

export interface FakeConnections {
  connect: ConnectionFactory;
  sockets: FakeSocket[];
  latest(): FakeSocket;
}

export function fakeConnections(): FakeConnections {
  const sockets: FakeSocket[] = [];
  const connect: ConnectionFactory = (url) => {
    const open: (() => void)[] = [];
    const message: ((raw: string) => void)[] = [];
    const close: ((info: CloseInfo) => void)[] = [];
    const socket: FakeSocket = {
      url,
      sent: [],
      closed: null,
      send: (m) => void socket.sent.push(m),
      onOpen: (l) => void open.push(l),
      onMessage: (l) => void message.push(l),
      onClose: (l) => void close.push(l),
      close: (code = 1000, reason = '') => socket.drop(code, reason || 'closed by the extension'),
      accept: () => open.forEach((l) => l()),
      deliver: (m) => {
        const raw = typeof m === 'string' ? m : JSON.stringify(m);
        message.forEach((l) => l(raw));
      },
      drop: (code = 1006, reason = '') => {
        if (socket.closed) return;
        socket.closed = { code, reason };
        close.forEach((l) => l({ code, reason }));
      },
    };
    sockets.push(socket);
    return socket;
  };
  return {
    connect,
    sockets,
    latest: () => {
      const s = sockets[sockets.length - 1];
      if (!s) throw new Error('no socket was opened');
      return s;
    },
  };
}
