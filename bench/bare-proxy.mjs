/**
 * The bench's yardstick: the least a proxy on this machine can add. A pass-through written
 * directly on node:http (keep-alive, headers as they came minus hop-by-hop ones, bodies piped
 * both ways), with nothing else: no routing, no capture, no security checks. The bench runs it
 * as a process of its own beside the companion, so both pay the same process hop.
 * Usage: node bench/bare-proxy.mjs <port> <upstream origin>
 */
import http from 'node:http';

const [port, upstream] = process.argv.slice(2);
const target = new URL(upstream);
const agent = new http.Agent({ keepAlive: true });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'date']);

function headers(raw) {
  const out = {};
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    if (!HOP.has(k)) out[k] = raw[i + 1];
  }
  return out;
}

http
  .createServer((req, res) => {
    const up = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: headers(req.rawHeaders), agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, headers(answer.rawHeaders));
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  })
  .listen(Number(port), '127.0.0.1', () => console.log('listening on'));
