/**
 * A loopback OTLP/HTTP endpoint for the bench: reads each export request, answers 200 and counts
 * it, decoding nothing, so the bench process spends as little as it can on the export it measures.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  /** Export requests and their bytes, by path (`/v1/traces`, `/v1/metrics`). */
  received: Map<string, { requests: number; bytes: number }>;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const received = new Map<string, { requests: number; bytes: number }>();
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      const seen = received.get(req.url ?? '') ?? { requests: 0, bytes: 0 };
      received.set(req.url ?? '', { requests: seen.requests + 1, bytes: seen.bytes + bytes });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
