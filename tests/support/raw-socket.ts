/** Raw HTTP over a TCP socket, for requests node:http will not send (duplicate or missing Host, odd upgrades). Test-only. */
import net from 'node:net';

export interface RawSocketResponse {
  status: number;
  /** Everything the server wrote, headers and body. */
  text: string;
}

/** Writes `head` (CRLF-joined lines, an empty line added) and reads until the server closes or 2 s pass. */
export function rawExchange(port: number, lines: string[], body = ''): Promise<RawSocketResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text });
    };
    const timer = setTimeout(done, 2000);
    socket.on('connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
    });
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      if (text) done();
      else reject(err);
    });
  });
}
